//! `tenure/sim`'s TypeScript shapes are generated from the simulator's serde types
//! (`tenure_sim::ts`, ts-rs) into `src/simulation_shapes.d.ts`, which the `sim` module ships
//! as its `.d.ts` section; `tenure/search`'s `SearchProperty` from the property parser's list
//! into `src/search_shapes.d.ts`. These tests fail when a checked-in file is stale; to
//! regenerate: `TENURE_BLESS=1 cargo test -p tenure-wasm --test sim_shapes`.

use std::path::Path;

const HEADER: &str = "\
// Generated from the simulator's serde types (crates/tenure-sim, ts-rs) by
// crates/tenure-wasm/tests/sim_shapes.rs: do not edit. Times are ms numbers and node ids
// numbers, as the scenario files and the CLI's JSON have them.
";

/// Fails when the crate's file `relative` is not `want`; writes it under `TENURE_BLESS`.
fn check_in(relative: &str, want: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    if std::env::var_os("TENURE_BLESS").is_some() {
        let written = std::fs::write(&path, want);
        assert!(written.is_ok(), "writing {}: {written:?}", path.display());
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run TENURE_BLESS=1 cargo test -p tenure-wasm --test sim_shapes",
        path.display()
    );
}

fn generated() -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    out.push_str(&tenure_sim::ts::declarations());
    out
}

#[test]
fn the_checked_in_declarations_are_the_generated_ones() {
    check_in("src/simulation_shapes.d.ts", &generated());
}

const SEARCH_HEADER: &str = "\
// Generated from the search's property list (crates/tenure-sim/src/search/property.rs) by
// crates/tenure-wasm/tests/sim_shapes.rs: do not edit.
";

#[test]
fn the_checked_in_search_property_is_the_generated_one() {
    let want = format!("{SEARCH_HEADER}\n{}", tenure_sim::ts::search_declarations());
    check_in("src/search_shapes.d.ts", &want);
}

#[test]
fn the_search_property_type_lists_what_the_parser_takes() {
    let text = tenure_sim::ts::search_declarations();
    for line in text.lines().filter(|l| l.trim_start().starts_with("| \"")) {
        let name = line
            .trim_start()
            .trim_start_matches("| \"")
            .trim_end_matches('"');
        let parsed: Result<tenure_sim::search::Property, String> = name.parse();
        assert!(parsed.is_ok(), "{name}: {parsed:?}");
    }
    for p in ["no-leader-for=2s", "no-leader-for=250ms"] {
        assert!(p.parse::<tenure_sim::search::Property>().is_ok(), "{p}");
    }
}

#[test]
fn no_declaration_is_any() {
    let text = generated();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let trimmed = code.trim_start();
        if trimmed.starts_with('*') || trimmed.starts_with("/*") {
            continue;
        }
        assert!(
            !code
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "any"),
            "line {}: {line}",
            i + 1
        );
    }
}
