// Installs what the build and tests need when it is missing, and nothing when it is present:
// the wasm32 target and rustfmt/clippy, the pinned wasm-bindgen CLI, node_modules, Chromium.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { capture, root, run } from "./run.mjs";

/** The wasm target, and the rustfmt and clippy components the tests use. */
export function ensureRustTools({ lint = false } = {}) {
  const targets = capture("rustup", ["target", "list", "--installed"]) ?? "";
  if (!targets.split("\n").includes("wasm32-unknown-unknown")) {
    run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
  }
  if (lint) {
    if (capture("cargo", ["fmt", "--version"]) === null) run("rustup", ["component", "add", "rustfmt"]);
    if (capture("cargo", ["clippy", "--version"]) === null) run("rustup", ["component", "add", "clippy"]);
  }
}

/** The wasm-bindgen version Cargo.lock pins; the CLI must match it exactly. */
export function lockedWasmBindgenVersion() {
  const lock = readFileSync(join(root, "Cargo.lock"), "utf8");
  const match = lock.match(/\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!match) throw new Error("Cargo.lock has no wasm-bindgen package");
  return match[1];
}

/** Path of a wasm-bindgen CLI of exactly the locked version, installing it into .tools/ if needed. */
export function ensureWasmBindgen() {
  const version = lockedWasmBindgenVersion();
  const tools = join(root, ".tools");
  const local = join(tools, "bin", "wasm-bindgen");
  const wanted = `wasm-bindgen ${version}`;
  if (capture(local, ["--version"]) === wanted) return local;
  if (capture("wasm-bindgen", ["--version"]) === wanted) return "wasm-bindgen";
  console.log(`wasm-bindgen ${version} (the Cargo.lock version) is missing: installing it into .tools/ (a few minutes)`);
  // No --locked: the CLI's own lockfile does not resolve here; the version pin is what matters.
  run("cargo", ["install", "wasm-bindgen-cli", "--version", `=${version}`, "--root", tools, "--force"]);
  const got = capture(local, ["--version"]);
  if (got !== wanted) throw new Error(`installed wasm-bindgen reports "${got}", expected "${wanted}"`);
  return local;
}

/** Runs `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureNodeModules() {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}

/** Path of Debian's Chromium (or $CHROMIUM_PATH), installing it with apt when absent and root. */
export function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(path)) return path;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Chromium not found at ${path}. The browser tests drive Debian's Chromium: install it with ` +
        "`sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary, then rerun `npm test`.",
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  run("apt-get", ["update"], { env });
  run("apt-get", ["install", "-y", "chromium"], { env });
  if (!existsSync(path)) throw new Error(`apt installed chromium but ${path} does not exist`);
  return path;
}

/**
 * The nightly toolchain and cargo-fuzz for the fuzz targets in fuzz/. Returns true when both
 * are usable; false (with the reason printed) when they cannot be installed here, so callers
 * fall back to the same target bodies on stable (`fuzz/src/bin/smoke.rs`).
 */
export function ensureFuzzTools() {
  try {
    if (capture("rustup", ["run", "nightly", "rustc", "--version"]) === null) {
      run("rustup", ["toolchain", "install", "nightly", "--profile", "minimal"]);
    }
    if (capture("cargo", ["+nightly", "fuzz", "--version"]) === null) {
      console.log("cargo-fuzz is missing: installing it (a few minutes)");
      run("cargo", ["+nightly", "install", "cargo-fuzz", "--locked"]);
    }
    return capture("cargo", ["+nightly", "fuzz", "--version"]) !== null;
  } catch (err) {
    console.log(`nightly or cargo-fuzz could not be installed (${err.message}): using the stable smoke runner`);
    return false;
  }
}

/**
 * The store servers the real-server suite starts (tests/stores/): Debian's redis-server,
 * PostgreSQL and etcd-server, installed with apt when missing and root. Never skipped: a test
 * run without them fails saying how to install them.
 */
export async function ensureStoreServers() {
  const { findBinary, SERVER_PACKAGES } = await import("../../tests/stores/servers/binaries.mjs");
  const missing = Object.keys(SERVER_PACKAGES).filter((server) => !findBinary(server));
  if (missing.length === 0) return;
  const packages = missing.map((server) => SERVER_PACKAGES[server]);
  if (process.getuid?.() !== 0) {
    throw new Error(
      `the store tests start real servers; missing: ${missing.join(", ")}. Install them with ` +
        `\`sudo apt-get install -y ${packages.join(" ")}\`, then rerun \`npm test\`.`,
    );
  }
  console.log(`store servers missing (${missing.join(", ")}): installing ${packages.join(" ")}`);
  // Debian's packages start their own service where they can; ours run on their own ports.
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive", RUNLEVEL: "1" };
  run("apt-get", ["update"], { env });
  run("apt-get", ["install", "-y", "--no-install-recommends", ...packages], { env });
  const still = Object.keys(SERVER_PACKAGES).filter((server) => !findBinary(server));
  if (still.length > 0) throw new Error(`apt installed ${packages.join(" ")} but ${still.join(", ")} is still missing`);
}
