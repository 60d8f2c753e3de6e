//! Progress on long runs: an indicatif bar on stderr when stderr is a terminal, nothing when
//! it is piped or redirected (so logs and CI output stay clean). `TENURE_PROGRESS=0` turns it
//! off on a terminal too.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Whether to draw progress: stderr is a terminal and `TENURE_PROGRESS` is not `0`.
pub(crate) fn wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var("TENURE_PROGRESS").map_or(true, |v| v != "0")
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// A bar over `len` items named `unit` (`runs`, `crashes`), or `None` when not wanted.
pub(crate) fn bar(len: u64, unit: &str) -> Option<ProgressBar> {
    wanted().then(|| {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        bar.set_style(style(&format!(
            "{{bar:30}} {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, about {{eta}} left{{msg}}"
        )));
        bar.enable_steady_tick(Duration::from_millis(250));
        bar
    })
}

/// A spinner with a message and the elapsed time, for work with no known length.
pub(crate) fn spinner(message: String) -> Option<ProgressBar> {
    wanted().then(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(style("{spinner} {msg} ({elapsed})"));
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(250));
        bar
    })
}
