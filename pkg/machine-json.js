// `fromJSON` for the machine classes: each one's `toJSON()` (a summary for logs and
// `JSON.stringify`, with 64-bit values as decimal strings) read back into a machine with the
// same config. Like a restart, the machine starts from that config: volatile state (a
// candidate's lease, a node's role) is not carried over. A RaftNode's term, vote and log are
// not in the summary; `RaftNode.restart(config, persisted)` restarts one with them.
import { misuse } from "./election/errors.js";

/** The config keys each machine reads as bigints (toJSON writes them as decimal strings). */
const BIGINT_KEYS = {
  LeaseCandidate: ["holder", "seed"],
  RaftNode: ["id", "peers", "seed"],
  BullyNode: ["id", "peers", "seed"],
};

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** `v` with a decimal string (or an array's decimal strings) made a bigint; anything else as is. */
function revive(v) {
  if (typeof v === "string" && DECIMAL.test(v)) return BigInt(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === "string" && DECIMAL.test(x) ? BigInt(x) : x));
  return v;
}

/**
 * Adds `fromJSON(json)` to the machine classes of a bindings namespace. `json` is a `toJSON()`
 * summary or its JSON text; its `config` goes to the constructor, which checks it as it checks
 * any config (a value that is not a decimal string where a bigint is wanted is refused there,
 * in its words).
 */
export function addMachineFromJSON(bindings) {
  for (const [name, keys] of Object.entries(BIGINT_KEYS)) {
    const cls = bindings[name];
    Object.defineProperty(cls, "fromJSON", {
      configurable: true,
      writable: true,
      value: function fromJSON(json) {
        let summary = json;
        if (typeof json === "string") {
          try {
            summary = JSON.parse(json);
          } catch (err) {
            throw misuse(TypeError, "ERR_OBJECT_TYPE", `${name}.fromJSON: the text is not JSON (${err.message})`);
          }
        }
        if (summary === null || typeof summary !== "object" || Array.isArray(summary)) {
          throw misuse(TypeError, "ERR_OBJECT_TYPE", `${name}.fromJSON: expected what ${name}'s toJSON() returns (an object with a config), got ${summary === null ? "null" : Array.isArray(summary) ? "an array" : typeof summary}`);
        }
        const config = summary.config;
        if (config === null || typeof config !== "object" || Array.isArray(config)) {
          throw misuse(TypeError, "ERR_OBJECT_TYPE", `${name}.fromJSON: the summary's config must be an object, got ${config === null ? "null" : Array.isArray(config) ? "an array" : typeof config}`);
        }
        const read = { ...config };
        for (const key of keys) if (key in read) read[key] = revive(read[key]);
        // `this`: the class as the caller reached it (the browser entry's guarded constructor).
        return new this(read);
      },
    });
  }
}
