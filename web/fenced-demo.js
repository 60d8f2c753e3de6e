// "The fenced resource by hand": one FencedResource from the npm package `tenure`, driven
// from a form. Actions are data ([label, handler]); rendering only reads the resource.
// It uses the package's main entry, so it needs the machines' wasm (not the simulator's),
// and fetches it only when the section comes near the viewport or is used (a focus, a
// pointer press, a submit): the page's first load is the playground alone, which is what
// its size budget counts (scripts/build-web.mjs, docs/bindings.md).
import { whenNear } from "./when-near.js";

const $ = (id) => document.getElementById(id);
const section = $("fenced");

/** @type {import("tenure").FencedResource | undefined} */
let resource;
let loading;

/** Loads the machines' module and makes the resource (once). */
function load() {
  loading ??= import("tenure").then(async ({ default: init, FencedResource }) => {
    await init();
    resource = new FencedResource();
    render();
    $("status").textContent = "ready";
    document.body.dataset.fencedReady = "true";
  });
  return loading;
}

/** Runs `fn` with the resource, loading it first when it is not there yet. */
function withResource(fn) {
  if (resource) fn();
  else void load().then(fn);
}

/** Appends one outcome line: kind is "accepted", "rejected" or "error". */
function log(kind, text) {
  const li = document.createElement("li");
  li.className = kind;
  li.dataset.kind = kind;
  li.textContent = text;
  $("log").prepend(li);
}

function render() {
  $("highest-token").textContent = resource.highestToken.toString();
  const value = resource.value;
  $("value").textContent = value === undefined ? "(none)" : JSON.stringify(value);
}

/** Reads a token field as a bigint; the package itself rejects negatives and >= 2^64. */
function parseToken(text) {
  try {
    return BigInt(text.trim());
  } catch {
    throw Object.assign(new TypeError(`not an integer: ${JSON.stringify(text)}`), { code: "PAGE_TOKEN_SYNTAX" });
  }
}

function describe(action, result) {
  if (result.accepted) {
    log("accepted", `${action} with token ${result.token}: accepted`);
  } else {
    log("rejected", `${action} with token ${result.presented}: rejected, ${result.reason} (presented ${result.presented}, required ${result.required})`);
  }
}

/** Runs an action, logging its outcome or the error it threw (with its code), then re-renders. */
function act(label, fn) {
  try {
    describe(label, fn());
  } catch (err) {
    log("error", `${label}: ${err.name} ${err.code ?? ""}: ${err.message}`);
  }
  render();
}

const establish = (token) => act("establish", () => resource.establish(token));
const write = (token, value) => act(`write ${JSON.stringify(value)}`, () => resource.write(token, value));

// Scenario S01 (Kleppmann 2016): leader 1 holds token 33 and pauses; the lease expires,
// leader 2 gets 34 and establishes it; leader 1 wakes and writes with 33: rejected.
const story = [
  ["leader 1 writes with 33", () => write(33n, "from leader 1")],
  ["leader 2 establishes 34", () => establish(34n)],
  ["leader 2 writes with 34", () => write(34n, "from leader 2")],
  ["leader 1 wakes, writes with 33", () => write(33n, "late write from leader 1")],
];

$("establish-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  withResource(() => act("establish", () => resource.establish(parseToken(form.get("token")))));
});

$("write-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const value = form.get("value");
  withResource(() => act(`write ${JSON.stringify(value)}`, () => resource.write(parseToken(form.get("token")), value)));
});

$("story").addEventListener("click", () => {
  withResource(() => {
    for (const [, handler] of story) handler();
  });
});

// Used, or about to be seen: load the module.
for (const type of ["focusin", "pointerdown", "toggle"]) section.addEventListener(type, () => void load(), { once: true });
whenNear(section, load);
$("status").textContent = "ready (the fenced resource loads its wasm when you reach it)";
