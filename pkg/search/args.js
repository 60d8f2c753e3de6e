// The failover lab's functions as `tenure/search` exports them (pkg/search/node.js and
// browser.js). Kept out of pkg/guard.js, which the playground page loads: only the search
// module's users need it.

/**
 * `fn`, a function of the failover lab (`failoverMeasure`, `falseElections`, `failoverPlot`),
 * with an argument the caller left out or passed as `undefined` named as such. The module
 * reads `undefined` as JSON's `null`, as it reads a property's (which JSON.stringify drops),
 * and said "seed: expected a number, a bigint or a decimal string, got null" of
 * `failoverMeasure(setting, undefined, 1)`. `names` are the arguments' names in the module's
 * messages, by position (`null` for one whose message says `undefined` already). The error is
 * the module's own (class, code, the order in which arguments are checked); only "got null"
 * becomes "got undefined", in its message and its stack.
 */
export function undefinedArgs(fn, names) {
  const wrapped = function (...args) {
    try {
      return fn.apply(this, args);
    } catch (error) {
      if (error instanceof Error && error.code === "ERR_SCENARIO_TYPE") {
        const { message } = error;
        const i = names.findIndex((name) => name !== null && message.startsWith(`${name}: `));
        if (i >= 0 && args[i] === undefined && message.endsWith(", got null")) {
          const said = `${message.slice(0, -"null".length)}undefined`;
          error.message = said;
          if (typeof error.stack === "string") error.stack = error.stack.replace(message, said);
        }
      }
      throw error;
    }
  };
  Object.defineProperty(wrapped, "name", { value: fn.name });
  Object.defineProperty(wrapped, "length", { value: fn.length });
  return wrapped;
}
