// Every error code the package can throw is in the declared `TenureErrorCode` union and in
// pkg/README.md. A new user's trial found the README claiming "The type TenureErrorCode lists
// the codes" while the union came from the wasm bindings alone: ERR_STORE_OPTIONS,
// ERR_STORE_REQUEST and ERR_VALUE_TYPE (the adapters'), the `error` event's codes and
// ERR_SEARCH_TYPE/ERR_SEARCH_RANGE were in no union a caller could name. This test reads the
// codes from the sources (every "ERR_..." literal in the package's JavaScript and in the wasm
// bindings' Rust) and the union from the .d.ts text, following its type aliases and imports,
// so a new code must be declared and documented before it ships.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { root } from "../../scripts/lib/run.mjs";

const pkg = join(root, "pkg");
const CODE = /"(ERR_[A-Z0-9_]*[A-Z0-9])"/g;

/** The "ERR_..." literals in the tracked files under `dir` whose names match `ext`. */
function codesIn(dir, ext) {
  const files = execFileSync("git", ["ls-files", dir], { cwd: root, encoding: "utf8" }).split("\n").filter((f) => ext.test(f));
  const codes = new Map(); // code -> a file that has it
  for (const file of files) {
    for (const [, code] of readFileSync(join(root, file), "utf8").matchAll(CODE)) if (!codes.has(code)) codes.set(code, file);
  }
  return codes;
}

const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");

/** One .d.ts file's type aliases (name -> body text) and type imports (local name -> [file, name]). */
function parse(file) {
  const text = stripComments(readFileSync(file, "utf8"));
  const aliases = new Map();
  for (const [, name, body] of text.matchAll(/export\s+type\s+(\w+)\s*=\s*([^;]*);/g)) aliases.set(name, body);
  const imports = new Map();
  for (const [, names, from] of text.matchAll(/import\s+type\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    const target = join(dirname(file), from.replace(/\.js$/, ".d.ts"));
    for (const part of names.split(",").map((p) => p.trim()).filter(Boolean)) {
      const [orig, local = orig] = part.split(/\s+as\s+/).map((p) => p.trim());
      imports.set(local, [target, orig]);
    }
  }
  return { aliases, imports };
}

/** The string literals of the union `name` declared (or imported) in `file`, aliases followed. */
function union(file, name, seen = new Set()) {
  const id = `${file}#${name}`;
  if (seen.has(id)) return new Set();
  seen.add(id);
  assert.ok(existsSync(file), `${relative(root, file)} is missing (run npm run build)`);
  const { aliases, imports } = parse(file);
  if (!aliases.has(name)) {
    assert.ok(imports.has(name), `${name} is neither declared nor imported in ${relative(root, file)}`);
    const [from, orig] = imports.get(name);
    return union(from, orig, seen);
  }
  const out = new Set();
  for (const member of aliases.get(name).split("|").map((m) => m.trim()).filter(Boolean)) {
    const literal = /^"([^"]*)"$/.exec(member);
    if (literal) out.add(literal[1]);
    else {
      assert.match(member, /^\w+$/, `${name} in ${relative(root, file)}: a member ${JSON.stringify(member)} this reader cannot follow`);
      for (const code of union(file, member, seen)) out.add(code);
    }
  }
  return out;
}

const declared = union(join(pkg, "index.d.ts"), "TenureErrorCode");

test("every code the package's JavaScript throws is in TenureErrorCode", () => {
  const js = codesIn("pkg", /^pkg\/(?!dist\/).*\.js$/);
  assert.ok(js.size >= 40, `only ${js.size} codes found in pkg/**/*.js`);
  const missing = [...js].filter(([code]) => !declared.has(code)).map(([code, file]) => `${code} (${file})`);
  assert.deepEqual(missing, [], "codes thrown in the JavaScript but in no declared union");
});

test("every code the wasm bindings throw is in TenureErrorCode", () => {
  const rust = codesIn("crates/tenure-wasm/src", /\.rs$/);
  assert.ok(rust.size >= 40, `only ${rust.size} codes found in crates/tenure-wasm/src`);
  const missing = [...rust].filter(([code]) => !declared.has(code)).map(([code, file]) => `${code} (${file})`);
  assert.deepEqual(missing, [], "codes thrown by the bindings but in no declared union");
});

// The bindings' own union (dist/tenure.d.ts, generated from crates/tenure-wasm/src/types.rs)
// lacked ERR_SEARCH_TYPE and ERR_SEARCH_RANGE, which only pkg/index.d.ts added: the generated
// declaration now covers every code the Rust throws, each module's codes declared once (the
// search module's SearchErrorCode, imported as a type).
test("the bindings' generated TenureErrorCode covers every code the wasm bindings throw", () => {
  const generated = union(join(pkg, "dist", "tenure.d.ts"), "TenureErrorCode");
  const rust = codesIn("crates/tenure-wasm/src", /\.rs$/);
  const missing = [...rust].filter(([code]) => !generated.has(code)).map(([code, file]) => `${code} (${file})`);
  assert.deepEqual(missing, [], "codes thrown by the bindings but not in dist/tenure.d.ts's TenureErrorCode");
});

test("every declared code is documented in pkg/README.md", () => {
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const undocumented = [...declared].filter((code) => !readme.includes(`\`${code}\``));
  assert.deepEqual(undocumented, [], "codes in TenureErrorCode that pkg/README.md never names");
});

test("the reader follows the union: a known code of each part is found", () => {
  for (const code of ["ERR_TOKEN_RANGE", "ERR_SCENARIO_TYPE", "ERR_SEARCH_RANGE", "ERR_STORE_TYPE", "ERR_LEADERSHIP_EXPIRED", "ERR_STORE_TIMEOUT", "ERR_STORE_OPTIONS", "ERR_STORE_CLOSE_TIMEOUT"]) {
    assert.ok(declared.has(code), `${code} not read from the union`);
  }
  assert.ok(!declared.has("ERR_NOPE"));
});

test("every code Simulation throws is in SimulationErrorCode", async () => {
  // Break-it pass: Simulation threw ERR_MILLIS_* and ERR_TOO_LARGE, which the union lacked.
  const { Simulation } = await import("tenure/sim");
  const declaredSim = union(join(pkg, "dist", "tenure_sim.d.ts"), "SimulationErrorCode");
  const scenario = { version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 1000, faults: [] };
  const sim = new Simulation(scenario);
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const badLength = new Proxy([], { get: (t, k) => (k === "length" ? -1 : t[k]) });
  const calls = [
    () => sim.runUntil("10"),
    () => sim.runUntil(-1),
    () => sim.runUntil(10.0004),
    () => sim.inject({ type: "isolate", nodes: new Array(257).fill(1) }),
    () => sim.inject({ type: "isolate", nodes: badLength }),
    () => sim.inject(new Map()),
    () => new Simulation(revoked),
    () => sim.inject({ type: "isolate", nodes: [] }),
    () => sim.eventsSince(-1),
  ];
  const seen = new Set();
  for (const call of calls) {
    try {
      call();
      assert.fail(`${call} did not throw`);
    } catch (e) {
      assert.ok(typeof e.code === "string", `${call}: ${e}`);
      seen.add(e.code);
    }
  }
  for (const code of ["ERR_MILLIS_TYPE", "ERR_MILLIS_RANGE", "ERR_MILLIS_PRECISION", "ERR_TOO_LARGE"]) assert.ok(seen.has(code), code);
  assert.deepEqual([...seen].filter((c) => !declaredSim.has(c)), [], "codes Simulation threw that SimulationErrorCode lacks");
  sim.free();
});
