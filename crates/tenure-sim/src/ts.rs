//! TypeScript declarations of the simulator's serde types (feature `ts`, via ts-rs).
//!
//! The serde forms are the JS shapes (times in ms, node ids as numbers; docs/conventions.md),
//! so each type is declared once, in Rust, and its TypeScript comes from the same derive the
//! reader and the writer come from. The bindings' tests write [`declarations`] into the
//! `tenure/sim` `.d.ts` and fail when the checked-in copy is stale. Nothing of this reaches
//! the wasm: the feature is only on in tests.
//!
//! Types with their own serde impls say here what they look like in JSON; the scenario's
//! per-algorithm `config` union comes from the registry's config keys (each algorithm's
//! `config` part is read against its own keys, docs/algorithms.md).

use crate::units::{Ms, Probability, SignedMs};
use ts_rs::{Config, TS};

/// Implements [`TS`] for a type whose JSON form is the TypeScript type `$ts`.
macro_rules! json_as {
    ($($ty:ty => $ts:expr),* $(,)?) => {$(
        impl TS for $ty {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &Config) -> String {
                String::from($ts)
            }
            fn inline(_: &Config) -> String {
                String::from($ts)
            }
        }
    )*};
}

json_as! {
    Ms => "number",
    SignedMs => "number",
    Probability => "number",
    crate::process::Proc => "ProcId",
    crate::scenario::Algorithm => "Algorithm",
    SeedInput => "number | bigint | string",
    NetworkInput => "Partial<NetworkConfig>",
}

/// A scenario's `seed` as JS may give it: a safe integer, a bigint, or a decimal string (for
/// seeds above 2^53 in JSON text). Absent: drawn from getrandom.
pub struct SeedInput;

/// A scenario's `network` as input: every key optional (omitted = the default).
pub struct NetworkInput;

/// The ts-rs settings: `u64` quantities are `number`s (every simulator quantity stays below
/// 2^53; the shared decision on Simulation ids).
pub fn config() -> Config {
    Config::new().with_large_int("number")
}

/// `export type Name = ...;` with its doc comment.
fn export<T: TS + 'static + ?Sized>(cfg: &Config) -> String {
    let mut out = String::new();
    if let Some(docs) = T::docs() {
        out.push_str(&docs);
    }
    out.push_str(&layout(&format!("export {}", T::decl(cfg))));
    out
}

/// Lays out a ts-rs declaration one field per line, each object's `}` starting a line and
/// nested objects indented by two spaces (ts-rs writes `field: T, };` on one line, which
/// wasm-bindgen's re-indenting of the `.d.ts` reads as an object never closed).
fn layout(decl: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    let mut depth = 0usize;
    // Open `<`, `[` and `(` since the innermost `{`: a comma inside them separates no field.
    let mut nested: Vec<usize> = vec![0];
    let flush = |out: &mut String, line: &mut String, depth: usize| {
        let text = line.trim();
        if !text.is_empty() {
            out.push_str(&"  ".repeat(depth));
            out.push_str(text);
            out.push('\n');
        }
        line.clear();
    };
    let mut rest = decl;
    while let Some(c) = rest.chars().next() {
        if let Some(comment) = rest.strip_prefix("/**") {
            flush(&mut out, &mut line, depth);
            let end = comment.find("*/").map_or(comment.len(), |i| i + 2);
            let body = &comment[..end];
            for (i, text) in format!("/**{body}").lines().enumerate() {
                out.push_str(&"  ".repeat(depth));
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(text.trim());
                out.push('\n');
            }
            rest = &comment[end..];
            continue;
        }
        rest = &rest[c.len_utf8()..];
        match c {
            '"' => {
                line.push('"');
                let end = rest.find('"').map_or(rest.len(), |i| i + 1);
                line.push_str(&rest[..end]);
                rest = &rest[end..];
            }
            '{' => {
                line.push('{');
                flush(&mut out, &mut line, depth);
                depth += 1;
                nested.push(0);
            }
            '}' => {
                flush(&mut out, &mut line, depth);
                depth = depth.saturating_sub(1);
                nested.pop();
                line.push('}');
            }
            '<' | '[' | '(' => {
                if let Some(n) = nested.last_mut() {
                    *n += 1;
                }
                line.push(c);
            }
            '>' | ']' | ')' => {
                if let Some(n) = nested.last_mut() {
                    *n = n.saturating_sub(1);
                }
                line.push(c);
            }
            ',' if depth > 0 && nested.last() == Some(&0) => {
                line.push(',');
                flush(&mut out, &mut line, depth);
            }
            '\n' | ' ' => {
                if !line.is_empty() && !line.ends_with(' ') {
                    line.push(' ');
                }
            }
            other => line.push(other),
        }
    }
    flush(&mut out, &mut line, depth);
    out
}

/// The type name of an algorithm's config part: `raft` -> `RaftConfig`,
/// `lease-no-margin` -> `LeaseNoMarginConfig`.
pub fn config_type_name(algorithm: &str) -> String {
    let mut name: String = algorithm
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    name.push_str("Config");
    name
}

/// The simulator's part of `tenure/sim`'s declarations: scenarios (a union on `algorithm`,
/// each with its own `config` keys), faults, snapshots, trace events, violations, metrics.
pub fn declarations() -> String {
    use crate::scenario::{AlgoConfig, Algorithm, Scenario};
    let cfg = config();
    let mut out = String::new();
    let quoted = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    out.push_str("/** An election algorithm the simulator runs (the simulator's registry). */\n");
    out.push_str(&format!(
        "export type Algorithm = {};\n\n",
        quoted(&Algorithm::NAMES)
    ));
    out.push_str(
        "/** A process: a node id (1..nodes), or the lease world's \"store\" / \"resource\". */\n\
         export type ProcId = number | \"store\" | \"resource\";\n\
         /** A process as scenario and fault JSON name it (the same as ProcId). */\n\
         export type ProcRef = ProcId;\n\n",
    );
    out.push_str(&export::<AlgoConfig>(&cfg));
    out.push('\n');
    let mut union = Vec::new();
    let mut json_union = Vec::new();
    for algorithm in Algorithm::ALL {
        let spec = algorithm.spec();
        let name = config_type_name(spec.name);
        out.push_str(&format!(
            "/** The `config` keys of {} scenarios ({}); any other key is refused. */\n\
             export type {name} = Pick<ScenarioConfigFields, {}>;\n",
            spec.name,
            spec.title,
            if spec.config_keys.is_empty() {
                String::from("never")
            } else {
                quoted(spec.config_keys)
            }
        ));
        union.push(format!(
            "  | (ScenarioFields & {{ algorithm: \"{}\"; config?: {name} }})",
            spec.name
        ));
        json_union.push(format!(
            "  | (ScenarioJSONFields & {{ algorithm: \"{}\"; config: {name} }})",
            spec.name
        ));
    }
    out.push_str(&format!(
        "\n/** Any algorithm's config (what `SearchOptions.config` lays over a drawn scenario). */\n\
         export type ScenarioConfig = {};\n\n",
        Algorithm::ALL
            .iter()
            .map(|a| config_type_name(a.name()))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    out.push_str(&export::<crate::network::NetworkConfig>(&cfg));
    out.push('\n');
    out.push_str(&export::<crate::fault::Fault>(&cfg));
    out.push('\n');
    out.push_str(&export::<crate::fault::TimedFault>(&cfg));
    out.push('\n');
    // The scenario's fields but `algorithm` and `config`, which the union below pairs.
    out.push_str(&export::<Scenario>(&cfg));
    out.push_str(concat!(
        "\n/**\n",
        " * A whole run: the versioned JSON of the `tenure` CLI's scenario files, one member\n",
        " * per algorithm so that `config` holds only that algorithm's keys. Unknown keys are\n",
        " * refused everywhere; times are ms.\n",
        " */\nexport type Scenario =\n",
    ));
    out.push_str(&union.join("\n"));
    out.push_str(";\n\n");
    out.push_str(
        "/** The fields of ScenarioJSON but `algorithm` and `config`. */\n\
         export type ScenarioJSONFields = Omit<ScenarioFields, \"network\" | \"seed\" | \"faults\"> & {\n  \
         network: Required<NetworkConfig>;\n  \
         /** A number, or a decimal string above 2^53 - 1 so that JSON.stringify works (drawn seeds never are). */\n  \
         seed: number | string;\n  faults: TimedFault[];\n};\n\
         /** What Simulation.toJSON returns: the scenario with its seed and every injected fault. */\n\
         export type ScenarioJSON =\n",
    );
    out.push_str(&json_union.join("\n"));
    out.push_str(";\n\n");
    out.push_str(&outputs(&cfg));
    out
}

/// The records a run gives back: snapshots, trace events, violations, metrics.
fn outputs(cfg: &Config) -> String {
    use crate::{checker, event, metrics, snapshot, trace};
    [
        export::<snapshot::Snapshot>(cfg),
        export::<snapshot::Status>(cfg),
        export::<snapshot::NodeView>(cfg),
        export::<snapshot::TimerView>(cfg),
        export::<snapshot::LogEntryView>(cfg),
        export::<snapshot::InFlight>(cfg),
        export::<snapshot::Dropped>(cfg),
        export::<snapshot::StoreView>(cfg),
        export::<snapshot::ResourceView>(cfg),
        export::<trace::WriteRecord>(cfg),
        export::<trace::WriteRefusal>(cfg),
        export::<trace::DropReason>(cfg),
        export::<event::Role>(cfg),
        export::<event::RoleKind>(cfg),
        export::<metrics::Metrics>(cfg),
        export::<checker::InvariantKind>(cfg),
        export::<checker::Violation>(cfg),
        trace_event(cfg),
        export::<trace::TraceKind>(cfg),
        export::<event::NodeEvent>(cfg),
        export::<event::StepDownCause>(cfg),
        export::<event::RefusalCause>(cfg),
    ]
    .join("\n")
}

/// `TraceEvent` as its own fields `& TraceKind`. The struct flattens its kind
/// (`#[serde(flatten)]`), which ts-rs writes by inlining the whole union a second time; the
/// event union is declared once, as `TraceKind`, and referred to here by name. Should ts-rs
/// stop writing the flattened kind as expected, this falls back to ts-rs's own declaration,
/// and `trace_event_refers_to_the_event_union_declared_once` fails.
fn trace_event(cfg: &Config) -> String {
    use crate::trace::{TraceEvent, TraceKind};
    let decl = TraceEvent::decl(cfg);
    let inlined = format!("& {};", TraceKind::inline_flattened(cfg));
    let Some(fields) = decl.strip_suffix(&inlined) else {
        return export::<TraceEvent>(cfg);
    };
    let mut out = TraceEvent::docs().unwrap_or_default();
    out.push_str(&layout(&format!("export {fields}& TraceKind;")));
    out
}

/// `tenure/search`'s `SearchProperty`: the union of every property a search takes, from the
/// one list the parser reads ([`crate::search::property::NAMED`] and
/// [`crate::search::property::INVARIANTS`]), with `no-leader-for=` and a duration in `ms`,
/// `s`, `m` or `h` as template literals. A misspelt property fails to type-check, as it is refused at
/// run time.
pub fn search_declarations() -> String {
    use crate::search::property::{INVARIANTS, NAMED};
    let mut out = String::from(
        "/**\n * What a search looks for: \"any-promised\" (any invariant the algorithm promises),\n \
         * \"split-brain\", \"stale-write\", \"no-leader-for=2s\" (or \"=250ms\": no leader for\n \
         * longer than that), or an invariant's name such as \"election-safety\".\n */\n\
         export type SearchProperty =\n",
    );
    let names = NAMED
        .iter()
        .map(|(name, _)| *name)
        .chain(INVARIANTS.iter().map(|k| k.name()));
    for name in names {
        out.push_str(&format!("  | \"{name}\"\n"));
    }
    out.pop();
    for unit in ["ms", "s", "m", "h"] {
        out.push_str(&format!("\n  | `no-leader-for=${{number}}{unit}`"));
    }
    out.push_str(";\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_laid_out_one_field_a_line() {
        let decl = "type A = { \n/**\n * Its id.\n */\nid: number, \npair: [number, number], \nb: { c: Array<[ProcId, ProcId]>, }, } | { \"type\": \"x, }\", };";
        assert_eq!(
            layout(decl),
            "type A = {\n  /**\n   * Its id.\n   */\n  id: number,\n  pair: [number, number],\n  b: {\n    c: Array<[ProcId, ProcId]>,\n  },\n} | {\n  \"type\": \"x, }\",\n};\n"
        );
    }

    #[test]
    fn trace_event_refers_to_the_event_union_declared_once() {
        let text = declarations();
        assert_eq!(text.matches("\"event\": \"send\"").count(), 1, "{text}");
        let decl = trace_event(&config());
        assert!(decl.contains("export type TraceEvent = {"), "{decl}");
        assert!(decl.contains("seq: number,"), "{decl}");
        assert!(decl.contains("time_ms: number,"), "{decl}");
        assert!(decl.trim_end().ends_with("} & TraceKind;"), "{decl}");
    }

    #[test]
    fn config_type_names_are_pascal_case() {
        assert_eq!(config_type_name("raft"), "RaftConfig");
        assert_eq!(config_type_name("lease-no-margin"), "LeaseNoMarginConfig");
    }
}
