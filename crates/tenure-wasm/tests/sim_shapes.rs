//! `tenure/sim`'s TypeScript shapes are generated from the simulator's serde types
//! (`tenure_sim::ts`, ts-rs) into `src/simulation_shapes.d.ts`, which the `sim` module ships
//! as its `.d.ts` section. This test fails when the checked-in file is stale; to regenerate:
//! `TENURE_BLESS=1 cargo test -p tenure-wasm --test sim_shapes`.

use std::path::Path;

const HEADER: &str = "\
// Generated from the simulator's serde types (crates/tenure-sim, ts-rs) by
// crates/tenure-wasm/tests/sim_shapes.rs: do not edit. Times are ms numbers and node ids
// numbers, as the scenario files and the CLI's JSON have them.
";

fn generated() -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    out.push_str(&tenure_sim::ts::declarations());
    out
}

#[test]
fn the_checked_in_declarations_are_the_generated_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/simulation_shapes.d.ts");
    let want = generated();
    if std::env::var_os("TENURE_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run TENURE_BLESS=1 cargo test -p tenure-wasm --test sim_shapes",
        path.display()
    );
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
