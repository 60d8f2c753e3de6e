// Coded errors for the misuses the generated bindings cannot code themselves: calling a
// method of an object after its `free()` (wasm-bindgen says "null pointer passed to rust"),
// calling it with a `this` that is not one of its instances (`X.prototype.m.call({})`: the
// same message), calling it, or freeing it, while a call on it is still running (from a
// getter or Proxy trap of that call's argument; wasm-bindgen throws an uncoded "recursive use
// of an object", and a `free()` there would release memory the running call still uses), and,
// in browsers, using a class before `await init()` has loaded the wasm module (the glue fails
// with a bare TypeError). All are checked before the call reaches the module, so the caller
// gets an Error with a `code` and every object keeps working.

/** An Error with a stable `code`, as the bindings throw. */
function coded(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

/** The error for a call on a freed object. */
export function freedError(className, member) {
  return coded(
    "ERR_FREED",
    `${className}.${member}: this ${className} was freed (free() was called); create a new one`,
  );
}

/** The error for a method called with a `this` that is not an instance of its class. */
export function thisTypeError(className, member) {
  const error = new TypeError(
    `${className}.${member}: \`this\` is not ${/^[AEIOU]/.test(className) ? "an" : "a"} ${className} (call it on an object made by the ${className} class, not through .call() on another object)`,
  );
  error.code = "ERR_THIS_TYPE";
  return error;
}

/** The error for a call (or `free()`) on an object while a call on it is still running. */
export function reentrantError(className, member) {
  return coded(
    "ERR_REENTRANT",
    `${className}.${member}: called while a call on this ${className} is still running (from a getter or Proxy trap of that call's argument); call it after that call returns`,
  );
}

/** The error for a use of the browser entry `entry` ("tenure" or "tenure/sim") before `await init()`. */
export function notInitializedError(what, entry = "tenure") {
  return coded(
    "ERR_NOT_INITIALIZED",
    `tenure: ${what} was used before the wasm module was loaded; call \`await init()\` (exported by "${entry}") once first`,
  );
}

const SKIP_PROTO = new Set(["constructor", "free"]);
/** Set on an instance while one of its guarded members runs (the prototype holds `false`). */
const BUSY = Symbol("tenure.busy");
const SKIP_STATIC = new Set(["length", "name", "prototype"]);

/**
 * Wraps every method and accessor of each exported wasm class in `exports` (a class has a
 * prototype `free`) so that a call on a freed instance throws `ERR_FREED` (a second `free()`
 * does nothing), a call or `free()` whose `this` is not an instance of the class (a plain
 * object, or an instance of another wasm class) throws `ERR_THIS_TYPE`, a call or
 * `free()` made while a call on the same instance runs throws `ERR_REENTRANT`, and, when
 * `isReady` is given, any use while it returns false throws `ERR_NOT_INITIALIZED`.
 * Patches the classes in place (the package's own exports are these classes). Returns the
 * names of the classes guarded. `entry` names the package entry whose `init()` loads them.
 */
export function guardClasses(exports, isReady, entry = "tenure") {
  const guarded = [];
  for (const [name, cls] of Object.entries(exports)) {
    if (typeof cls !== "function" || typeof cls.prototype?.free !== "function") continue;
    if (cls.__tenureGuarded) {
      guarded.push(name);
      continue;
    }
    const proto = cls.prototype;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (SKIP_PROTO.has(key) || key.startsWith("__")) continue;
      const d = Object.getOwnPropertyDescriptor(proto, key);
      const wrap = (fn) =>
        function guardedMember(...args) {
          if (isReady && !isReady()) throw notInitializedError(`${name}.${key}`, entry);
          // An instance of another class (or a plain object) holds a pointer of another
          // type: the module would read and write it as this class's memory.
          if (!(this instanceof cls)) throw thisTypeError(name, key);
          const ptr = this.__wbg_ptr;
          if (ptr === 0) throw freedError(name, key);
          if (typeof ptr !== "number") throw thisTypeError(name, key);
          if (this[BUSY]) throw reentrantError(name, key);
          this[BUSY] = true;
          try {
            return fn.apply(this, args);
          } finally {
            this[BUSY] = false;
          }
        };
      if (typeof d.value === "function") d.value = wrap(d.value);
      if (d.get) d.get = wrap(d.get);
      if (d.set) d.set = wrap(d.set);
      Object.defineProperty(proto, key, d);
    }
    // A second free() is harmless, as closing twice is; a free() during a call is refused,
    // and so is one on an object the class did not make (it would run this class's
    // destructor on another's memory). `Symbol.dispose` is the same guarded free().
    Object.defineProperty(proto, BUSY, { value: false, writable: true });
    const free = proto.free;
    const guardedFree = function free_() {
      if (!(this instanceof cls) || typeof this.__wbg_ptr !== "number") throw thisTypeError(name, "free");
      if (this.__wbg_ptr === 0) return;
      if (this[BUSY]) throw reentrantError(name, "free");
      return free.call(this);
    };
    for (const key of ["free", Symbol.dispose].filter((k) => k !== undefined && Object.hasOwn(proto, k))) {
      Object.defineProperty(proto, key, { ...Object.getOwnPropertyDescriptor(proto, key), value: guardedFree });
    }
    if (isReady) {
      for (const key of Object.getOwnPropertyNames(cls)) {
        if (SKIP_STATIC.has(key) || key.startsWith("__")) continue;
        const d = Object.getOwnPropertyDescriptor(cls, key);
        if (typeof d.value !== "function") continue;
        const fn = d.value;
        d.value = function guardedStatic(...args) {
          if (!isReady()) throw notInitializedError(`${name}.${key}`, entry);
          return fn.apply(this, args);
        };
        Object.defineProperty(cls, key, d);
      }
    }
    Object.defineProperty(cls, "__tenureGuarded", { value: true });
    guarded.push(name);
  }
  return guarded;
}

/**
 * Wraps every method and accessor of a JavaScript class of the package (`LeaderElection`,
 * `ShardedElection`, `MemoryStore`) so that one applied to an object the class did not make
 * (`LeaderElection.prototype.assertLeadership.call({})`) throws `ERR_THIS_TYPE`, as the wasm
 * classes' members do, rather than the engine's TypeError about a private member. A member
 * that answers with a promise (an async one, or one named in `promising`) returns a rejected
 * promise instead of throwing, as it does for its other failures. `isInstance(obj)` is the
 * class's own brand check (`#field in obj`, from a static block).
 */
export function guardThis(cls, isInstance, promising = []) {
  const proto = cls.prototype;
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === "constructor") continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    const wrap = (fn) => {
      const async = fn.constructor.name === "AsyncFunction" || promising.includes(key);
      return function guardedThis(...args) {
        if (!(Object(this) === this && isInstance(this))) {
          const err = thisTypeError(cls.name, key);
          if (async) return Promise.reject(err);
          throw err;
        }
        return fn.apply(this, args);
      };
    };
    if (typeof d.value === "function") d.value = wrap(d.value);
    if (d.get) d.get = wrap(d.get);
    if (d.set) d.set = wrap(d.set);
    Object.defineProperty(proto, key, d);
  }
}

/**
 * `cls` behind a construct check: `new` while `isReady()` is false throws
 * `ERR_NOT_INITIALIZED`. `instanceof`, statics and subclassing behave as with `cls`.
 */
export function guardConstructor(cls, isReady, entry = "tenure") {
  return new Proxy(cls, {
    construct(target, args, newTarget) {
      if (!isReady()) throw notInitializedError(`new ${target.name}()`, entry);
      return Reflect.construct(target, args, newTarget);
    },
  });
}

/**
 * The browser entries' loader for one wasm-bindgen module (`wasmInit` its default export,
 * `bindings` its namespace): `init(input)` fetches and instantiates it once (later calls return
 * the same promise; `input` is a URL, a Response, bytes or a module, by default the `.wasm`
 * beside the glue), `initSync(module)` instantiates it from bytes or a compiled module, and
 * `isReady()` says whether either has finished (what the class guards ask).
 */
export function wasmLoader(wasmInit, bindings) {
  let ready;
  let loaded = false;
  return {
    isReady: () => loaded,
    init(input) {
      ready ??= wasmInit(input === undefined ? undefined : { module_or_path: input }).then(() => {
        loaded = true;
      });
      return ready;
    },
    initSync(module) {
      const result = bindings.initSync(module);
      loaded = true;
      ready ??= Promise.resolve();
      return result;
    },
  };
}

/**
 * Runs `read`, a read of a caller's argument done in JS (the options objects of
 * `LeaderElection`, the stores and the testing helpers), and rethrows what a getter or Proxy
 * trap of that argument throws as the bindings do: unchanged, with `code: "ERR_INPUT_THREW"`
 * added when it is an Error without a `code` of its own that can take one. Errors Tenure
 * raises itself carry their own codes and pass through as they are.
 */
export function readingInput(read) {
  try {
    return read();
  } catch (thrown) {
    markInputThrew(thrown);
    throw thrown;
  }
}

/** Adds `code: "ERR_INPUT_THREW"` to an uncoded, extensible Error; anything else is left alone. */
function markInputThrew(thrown) {
  // A thrown Proxy's traps may throw again: each question asked of it is guarded.
  try {
    if (!(thrown instanceof Error) || Object.getOwnPropertyDescriptor(thrown, "code") !== undefined) return;
    Object.defineProperty(thrown, "code", { value: "ERR_INPUT_THREW", configurable: true, writable: true });
  } catch {
    // Frozen, or a trap refused: the exception is rethrown without a code.
  }
}

// A lone surrogate: a high one not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `text` cannot name a lease, or `undefined` when it can: a string with a lone UTF-16
 * surrogate ("a\uD800") has no UTF-8 form, so the wasm module (Rust strings), Redis, PostgreSQL
 * and etcd would all keep U+FFFD in its place, and "a\uD800" and "a\uDBFF" would be one lease.
 * The caller prefixes the name and value: `options.key "a\ud800" ${notWellFormed(...)}`.
 */
export function notWellFormed(text) {
  if (typeof text.isWellFormed === "function" ? text.isWellFormed() : !LONE_SURROGATE.test(text)) return undefined;
  const { index } = LONE_SURROGATE.exec(text);
  const unit = text.charCodeAt(index).toString(16).toUpperCase();
  return (
    `is not well-formed Unicode: it has a lone UTF-16 surrogate, \\u${unit} at index ${index}, which UTF-8 cannot ` +
    "encode (it would be stored as U+FFFD, so different strings would name the same thing); " +
    "pass a well-formed string (String.prototype.isWellFormed())"
  );
}

/**
 * The longest string a lease names (its key, a holder, a session), in UTF-16 code units: what
 * the machines and every store adapter accept (README, "Limits").
 */
export const MAX_LEASE_STRING = 65_536;

/**
 * Refuses a revoked Proxy as the bindings do (`new LeaseCandidate(revoked)`): a TypeError with
 * `code: "ERR_REVOKED_PROXY"`, `${name} is a revoked Proxy and cannot be read`, the engine's own
 * error as its `cause`. Anything else passes. `Array.isArray` runs no trap of a live Proxy and
 * throws only for a revoked one, so this reads nothing of the value.
 */
export function refuseRevokedProxy(value, name) {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return;
  try {
    Array.isArray(value);
  } catch (cause) {
    const err = new TypeError(`${name} is a revoked Proxy and cannot be read`, { cause });
    err.code = "ERR_REVOKED_PROXY";
    throw err;
  }
}

/**
 * Why `value` is not a plain object (`{...}` or `Object.create(null)`, from any realm), in the
 * bindings' words ("null", "an array", "a Map (not a plain object)", "number"), or `undefined`
 * when it is one. Call refuseRevokedProxy first: this asks a Proxy for its prototype.
 */
export function notPlainObject(value) {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  if (Array.isArray(value)) return "an array";
  const proto = Object.getPrototypeOf(value);
  if (proto === null || Object.getPrototypeOf(proto) === null) return undefined;
  const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
  const name = typeof ctor === "function" && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name : "";
  if (name === "" || name === "Object") return "an object that is not a plain object";
  return `${withArticle(name)} (not a plain object)`;
}

/** `word` with its English article, as a message reads it: "an Acquire", "a Map". */
export function withArticle(word) {
  return `${/^[AEIOU]/.test(word) ? "an" : "a"} ${word}`;
}

/** A short description of a value for messages: `the string "100"`, `NaN`, `-1`, `5n`. */
export function describe(value) {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)}`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "object") return Array.isArray(value) ? "an array" : `an object (${value.constructor?.name ?? "no prototype"})`;
  return `${typeof value} ${String(value)}`;
}
