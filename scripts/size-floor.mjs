// `node scripts/size-floor.mjs`: how small the simulator's wasm can be before any JS boundary.
//
// Builds a throwaway cdylib (under target/size-floor/) that depends on the simulator crate and
// exports one C-ABI function: draw a chaos scenario (every fault family) for any of the three
// algorithms, run it to its end, take a snapshot, return the trace hash. No wasm-bindgen, no
// scenario reader, no serde output, no error words: the runtime a `Simulation` plays and
// nothing else, so the figure is a floor under the sim module (it lacks manual delivery, fault
// injection, the event log's pages and the JS shapes, which only add). Built with the sim
// module's settings (opt-level "s", fat LTO, panic=abort, then wasm-opt -Oz --converge), at
// opt-level "z", and once more with the scenario read from JSON text by its serde derives;
// printed next to the shipped module (pkg/dist/tenure_sim_bg.wasm, when built) and its goal.
// docs/bindings.md ("The size floor") reads these figures.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { budgets, gzipped } from "./lib/budgets.mjs";
import { ensureNodeModules, ensureRustTools } from "./lib/ensure.mjs";
import { root, run } from "./lib/run.mjs";
import { WASM_FEATURES } from "./build.mjs";

const dir = join(root, "target", "size-floor");
const crate = join(dir, "crate");

const SOURCE = `//! The simulator's runtime with no JS boundary (scripts/size-floor.mjs).
use tenure_sim::chaos::{scenario, ChaosOptions};
use tenure_sim::{Algorithm, World};

/// Runs chaos run \`seed\` of \`algorithm\` (0 Raft, 1 Bully, else lease-fencing) on \`nodes\`
/// nodes for \`duration_ms\` of faults; returns the trace hash mixed with the snapshot's size.
#[unsafe(no_mangle)]
pub extern "C" fn run(algorithm: u32, nodes: u64, seed: u64, duration_ms: u64) -> u64 {
    let algorithm = match algorithm {
        0 => Algorithm::Raft,
        1 => Algorithm::Bully,
        _ => Algorithm::LeaseFencing,
    };
    let mut options = ChaosOptions::new(algorithm);
    options.nodes = nodes;
    options.duration_ms = duration_ms;
    let Ok(mut world) = World::new(&scenario(&options, seed)) else {
        return 0;
    };
    world.keep_recent_events(1000);
    world.run();
    let snapshot = world.snapshot();
    world.trace_hash() ^ snapshot.nodes.len() as u64 ^ world.violations().len() as u64
}
`;

// The same runtime given its scenario as JSON text, read by the scenario's serde derives
// through serde_json: the least a boundary that reads the documented scenario shape adds
// (no strictness beyond serde's, no error words, no JS values, no output shapes).
const READER = `
/// Reads the scenario JSON text at \`text\` (\`len\` bytes), runs it to its end and returns its
/// trace hash; 0 when the text is not a valid scenario.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn run_text(text: *const u8, len: usize) -> u64 {
    // SAFETY: the caller passes \`len\` readable bytes at \`text\`.
    let bytes = unsafe { std::slice::from_raw_parts(text, len) };
    let Ok(scenario) = serde_json::from_slice::<tenure_sim::Scenario>(bytes) else {
        return 0;
    };
    World::new(&scenario).map_or(0, |mut world| {
        world.run();
        world.trace_hash()
    })
}

/// Allocates \`len\` bytes for \`run_text\`'s text (leaked: a measurement, not a library).
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    Vec::<u8>::with_capacity(len).leak().as_mut_ptr()
}
`;

function manifest(optLevel, reader) {
  return `[package]
name = "size-floor"
version = "0.0.0"
edition = "2024"
publish = false

[lib]
crate-type = ["cdylib"]
path = "lib.rs"

[dependencies]
tenure-sim = { path = ${JSON.stringify(join(root, "crates", "tenure-sim"))}, default-features = false }
${reader ? 'serde_json = "1"\n' : ""}
[profile.release]
opt-level = ${JSON.stringify(optLevel)}
lto = true
codegen-units = 1
panic = "abort"

[workspace]
`;
}

function floor(optLevel, reader = false) {
  const name = `${optLevel}${reader ? "-reader" : ""}`;
  mkdirSync(crate, { recursive: true });
  writeFileSync(join(crate, "Cargo.toml"), manifest(optLevel, reader));
  writeFileSync(join(crate, "lib.rs"), reader ? SOURCE + READER : SOURCE);
  // The workspace's lock file, so the simulator builds against the versions it ships with.
  cpSync(join(root, "Cargo.lock"), join(crate, "Cargo.lock"));
  const target = join(dir, `target-${name}`);
  run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--manifest-path", join(crate, "Cargo.toml")], {
    env: { ...process.env, CARGO_TARGET_DIR: target },
  });
  const out = join(dir, `floor-${name}.wasm`);
  run(join(root, "node_modules", ".bin", "wasm-opt"), [
    "-Oz",
    "--converge",
    ...WASM_FEATURES,
    "--strip-debug",
    "--strip-producers",
    join(target, "wasm32-unknown-unknown", "release", "size_floor.wasm"),
    "-o",
    out,
  ]);
  return gzipped(readFileSync(out));
}

ensureRustTools();
ensureNodeModules();
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const s = floor("s");
const z = floor("z");
const reader = floor("s", true);
const budget = budgets()["sim wasm (tenure/sim)"];
const shipped = join(root, "pkg", "dist", "tenure_sim_bg.wasm");
console.log("\nthe simulator's runtime without a JS boundary (gzip -9):");
console.log(`  opt-level "s" (the sim module's setting)  ${kb(s)}`);
console.log(`  opt-level "z"                             ${kb(z)}`);
console.log(`  "s" with the scenario read from JSON text ${kb(reader)} (serde derives through serde_json: +${kb(reader - s)})`);
if (existsSync(shipped)) {
  const sim = gzipped(readFileSync(shipped));
  console.log(`  the shipped sim module                    ${kb(sim)} (its boundary: ${kb(sim - s)})`);
}
console.log(`  the sim module's goal                     ${kb(budget.goal)} (room left for the boundary: ${kb(budget.goal - s)} at "s", ${kb(budget.goal - z)} at "z")`);
