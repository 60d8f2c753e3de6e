// The JS store protocol the adapters implement (pkg/README.md, "The store contract").
export type StoreRequest =
  | { type: "Acquire"; key: string; holder: string; session: string; ttl_ms: number }
  | { type: "Renew"; key: string; holder: string; session: string; token: bigint; ttl_ms: number }
  | { type: "Release"; key: string; holder: string; session: string; token: bigint };

export type StoreReply =
  | { type: "Granted"; token: bigint; ttl_ms: number }
  | { type: "Held"; holder?: string; remaining_ms?: number }
  | { type: "Renewed"; token: bigint; ttl_ms: number }
  | { type: "Released" }
  | { type: "Rejected"; reason: "NotHolder" | "TokenMismatch" | "Expired" | "TokensExhausted" | "Unknown" };

/** The answer of a fenced resource: the same shapes as the wasm `FencedResource`'s. */
export type FenceResult =
  | { accepted: true; token: bigint }
  | { accepted: false; reason: "stale fencing token"; presented: bigint; required: bigint };

/** What a fenced resource holds: the highest token seen (`0n` before any) and the last value. */
export interface FencedState {
  highestToken: bigint;
  value: string | undefined;
}

/** A store failure: the client threw or the server answered something unreadable. */
export interface StoreError extends Error {
  code: "ERR_STORE" | "ERR_FENCED_ROW_MISSING";
  request: { type: string; key?: string };
  cause?: unknown;
}
