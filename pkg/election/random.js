// A small seeded PRNG (SplitMix64 folded to doubles) for MemoryStore's latency and loss and
// the conformance kit's differential run: the same seed gives the same draws everywhere.
import { describe } from "../guard.js";
import { misuse } from "./errors.js";

const MASK = (1n << 64n) - 1n;

export class Random {
  #state;

  /** @param {bigint} seed */
  constructor(seed) {
    this.#state = BigInt.asUintN(64, seed);
  }

  /** A uniform draw from [0, 1). */
  next() {
    this.#state = (this.#state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.#state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  }

  /** A uniform integer in [0, n). */
  int(n) {
    return Math.floor(this.next() * n);
  }
}

/** A fresh 64-bit seed from crypto.getRandomValues. */
export function freshSeed() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/**
 * A random UUID (v4): crypto.randomUUID where it exists (secure contexts, Node), else built
 * from crypto.getRandomValues (a page served over plain http).
 */
export function randomId() {
  if (typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Reads a seed option: a bigint from 0n to 2n ** 64n - 1n. A number is refused (past 2 ** 53 it
 * has lost digits already), with the bigint to write where there is one. MemoryStore and the
 * testing kit read their seeds here. `where` names the option as the caller wrote it.
 */
export function seedOption(where, v) {
  const want = `${where} must be a bigint from 0n to 2n ** 64n - 1n`;
  if (typeof v !== "bigint") {
    let got = describe(v);
    if (Number.isSafeInteger(v)) got += v >= 0 ? ` (write ${v}n)` : " (a seed is 0n or more)";
    else if (Number.isInteger(v)) got = `the number ${BigInt(v)}, past 2 ** 53 where numbers lose digits (write the seed as a bigint literal, such as 1152921504606846977n)`;
    else if (typeof v === "number") got = `the number ${v}, not a whole number`;
    throw misuse(TypeError, "ERR_SEED_TYPE", `${want}, got ${got}`);
  }
  if (v < 0n || v > 2n ** 64n - 1n) throw misuse(RangeError, "ERR_SEED_RANGE", `${want}, got ${v}n`);
  return v;
}
