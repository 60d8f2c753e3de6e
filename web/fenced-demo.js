// "The fenced resource by hand": one FencedResource from the npm package `tenure`, driven
// from a form. Actions are data ([label, handler]); rendering only reads the resource.
// It uses the package's main entry, so it loads the machines' wasm (not the simulator's).
import init, { FencedResource } from "tenure";

const $ = (id) => document.getElementById(id);

await init();
const resource = new FencedResource();

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
  act("establish", () => resource.establish(parseToken(form.get("token"))));
});

$("write-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const value = form.get("value");
  act(`write ${JSON.stringify(value)}`, () => resource.write(parseToken(form.get("token")), value));
});

$("story").addEventListener("click", () => {
  for (const [, handler] of story) handler();
});

render();
$("status").textContent = "ready";
document.body.dataset.fencedReady = "true";
