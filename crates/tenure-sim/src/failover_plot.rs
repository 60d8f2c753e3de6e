//! The failover plot: the cumulative distribution of time to a new leader, one step line per
//! setting, overlaid as in the Raft paper's Figure 16 (Ongaro & Ousterhout 2014, §9.3). One
//! renderer for the CLI's `--svg` and the playground's failover lab, so both draw the same.

use std::fmt::Write as _;

/// One setting's line: its label and its samples (us, any order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// What the setting is (`raft 150-300 ms`).
    pub label: String,
    /// Failover times, us.
    pub samples_us: Vec<u64>,
}

const W: f64 = 720.0;
const H: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 56.0;
/** Height of one legend line, under the plot. */
const LEGEND_LINE: f64 = 18.0;
/// Line colours (Okabe-Ito, distinguishable with colour-blindness) and dash patterns, so
/// lines differ by more than colour.
const COLORS: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
];
const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A round step for `max` over about five ticks: 1, 2 or 5 times a power of ten.
fn tick_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let pow = 10f64.powf(raw.log10().floor());
    let m = raw / pow;
    let f = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    f * pow
}

fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The plot as a standalone SVG document: x is time to a new leader (ms), y the fraction of
/// failovers that took at most that long. `title` heads it.
#[must_use]
pub fn cdf_svg(title: &str, series: &[Series]) -> String {
    let max_ms = series
        .iter()
        .flat_map(|s| s.samples_us.iter().copied())
        .max()
        .map_or(1.0, crate::units::us_to_ms)
        .max(1.0);
    let step = tick_step(max_ms);
    let x_max = (max_ms / step).ceil() * step;
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    #[allow(clippy::cast_precision_loss)]
    let total_h = H + 8.0 + series.len() as f64 * LEGEND_LINE;
    let x = |ms: f64| LEFT + ms / x_max * pw;
    let y = |f: f64| TOP + (1.0 - f) * ph;
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{total_h}" viewBox="0 0 {W} {total_h}" role="img" aria-labelledby="cdf-title cdf-desc" font-family="system-ui, sans-serif" font-size="12">"#
    );
    let _ = write!(o, r#"<title id="cdf-title">{}</title>"#, escape(title));
    let desc: Vec<String> = series
        .iter()
        .map(|s| {
            let mut v = s.samples_us.clone();
            v.sort_unstable();
            let pick = |q: f64| {
                #[allow(
                    clippy::cast_precision_loss,
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss
                )]
                let i = ((v.len().saturating_sub(1)) as f64 * q).round() as usize;
                v.get(i).copied().map_or(0.0, crate::units::us_to_ms)
            };
            format!(
                "{}: {} failovers, median {} ms, p99 {} ms",
                s.label,
                v.len(),
                fmt_num(pick(0.5)),
                fmt_num(pick(0.99))
            )
        })
        .collect();
    let _ = write!(
        o,
        r#"<desc id="cdf-desc">Cumulative distribution of time to a new leader. {}</desc>"#,
        escape(&desc.join("; "))
    );
    let _ = write!(
        o,
        r##"<rect width="{W}" height="{total_h}" fill="#ffffff"/>"##
    );
    let _ = write!(
        o,
        r##"<text x="{LEFT}" y="20" font-size="14" font-weight="600" fill="#1f2330">{}</text>"##,
        escape(title)
    );
    // Grid and axes.
    let mut t = 0.0;
    while t <= x_max + 1e-9 {
        let xx = x(t);
        let _ = write!(
            o,
            r##"<line x1="{xx:.1}" y1="{TOP}" x2="{xx:.1}" y2="{:.1}" stroke="#e3e6ec"/><text x="{xx:.1}" y="{:.1}" text-anchor="middle" fill="#3b4150">{}</text>"##,
            TOP + ph,
            TOP + ph + 16.0,
            fmt_num(t)
        );
        t += step;
    }
    for i in 0..=4 {
        let f = f64::from(i) / 4.0;
        let yy = y(f);
        let _ = write!(
            o,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#e3e6ec"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#3b4150">{}%</text>"##,
            LEFT + pw,
            LEFT - 6.0,
            yy + 4.0,
            i * 25
        );
    }
    let _ = write!(
        o,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#1f2330">time to a new leader after the leader crashes (ms)</text>"##,
        LEFT + pw / 2.0,
        H - 14.0
    );
    let _ = write!(
        o,
        r##"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle" fill="#1f2330">failovers at most this long</text>"##,
        TOP + ph / 2.0
    );
    // One step line per series, and the legend.
    for (i, s) in series.iter().enumerate() {
        let mut v = s.samples_us.clone();
        v.sort_unstable();
        let color = COLORS.get(i % COLORS.len()).copied().unwrap_or("#000");
        let dash = DASHES.get(i % DASHES.len()).copied().unwrap_or("");
        if !v.is_empty() {
            #[allow(clippy::cast_precision_loss)]
            let n = v.len() as f64;
            let mut d = format!("M{:.1},{:.1}", x(0.0), y(0.0));
            for (k, us) in v.iter().enumerate() {
                let ms = crate::units::us_to_ms(*us);
                #[allow(clippy::cast_precision_loss)]
                let f = (k + 1) as f64 / n;
                let _ = write!(d, " H{:.1} V{:.1}", x(ms), y(f));
            }
            let _ = write!(d, " H{:.1}", x(x_max));
            let dash_attr = if dash.is_empty() {
                String::new()
            } else {
                format!(r#" stroke-dasharray="{dash}""#)
            };
            let _ = write!(
                o,
                r#"<path class="series" data-label="{}" d="{d}" fill="none" stroke="{color}" stroke-width="2"{dash_attr}/>"#,
                escape(&s.label)
            );
        }
        #[allow(clippy::cast_precision_loss)]
        let ly = H + 4.0 + i as f64 * LEGEND_LINE;
        let lx = LEFT;
        let dash_attr = if dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{dash}""#)
        };
        let _ = write!(
            o,
            r##"<line x1="{lx:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{color}" stroke-width="2"{dash_attr}/><text x="{:.1}" y="{ly:.1}" fill="#1f2330">{}</text>"##,
            ly - 4.0,
            lx + 28.0,
            ly - 4.0,
            lx + 34.0,
            escape(desc.get(i).map_or("", String::as_str))
        );
    }
    let _ = write!(
        o,
        r##"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#3b4150"/></svg>"##
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_path_per_series_with_labels_escaped() {
        let svg = cdf_svg(
            "Failover <test>",
            &[
                Series {
                    label: "a & b".into(),
                    samples_us: vec![3_000, 1_000, 2_000],
                },
                Series {
                    label: "c".into(),
                    samples_us: vec![150_000],
                },
            ],
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(svg.matches("<path class=\"series\"").count(), 2);
        assert!(svg.contains("Failover &lt;test&gt;"));
        assert!(svg.contains("a &amp; b: 3 failovers, median 2 ms"));
        assert!(!svg.contains("a & b"));
    }

    #[test]
    fn an_empty_series_draws_no_line_but_keeps_its_legend() {
        let svg = cdf_svg(
            "t",
            &[Series {
                label: "none".into(),
                samples_us: vec![],
            }],
        );
        assert_eq!(svg.matches("<path").count(), 0);
        assert!(svg.contains("none: 0 failovers"));
    }

    #[test]
    fn ticks_are_round() {
        assert!((tick_step(300.0) - 100.0).abs() < 1e-9);
        assert!((tick_step(12.0) - 5.0).abs() < 1e-9);
        assert!((tick_step(7_000.0) - 2_000.0).abs() < 1e-9);
    }
}
