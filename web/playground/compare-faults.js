// Mapping one fault onto every pane of a comparison: by node index; the store and the
// resource only where they exist (lease worlds); "leader" as each pane's own acting leader.
// A fault that means nothing for a pane comes back as `{ skip: reason }`.

const LEASE_ONLY = new Set(["pause-after-check", "store-outage"]);
const LISTS = ["nodes", "from", "to"];

/** The node acting as leader in `snap` (the simulator's `acting_leader`), or null. */
export function actingLeader(snap) {
  return snap.nodes.find((n) => n.acting_leader)?.id ?? null;
}

/**
 * `fault` as pane `snap` (its algorithm and its world now) takes it: `{ fault }` or
 * `{ skip }` with the reason in words.
 */
export function mapFault(fault, snap) {
  const lease = snap.store != null;
  const algorithm = snap.algorithm;
  if (LEASE_ONLY.has(fault.type) && !lease) return { skip: `${fault.type} needs a lease store; ${algorithm} has none` };
  if (fault.type === "propose" && algorithm !== "raft") return { skip: `only Raft has a log to propose to` };
  const leader = actingLeader(snap);
  let missing = false;
  const one = (p) => {
    if (p === "leader") {
      if (leader == null) missing = true;
      return leader;
    }
    if ((p === "store" || p === "resource") && !lease) return undefined;
    if (typeof p === "number" && !snap.nodes.some((n) => n.id === p)) return undefined;
    return p;
  };
  const list = (xs) => xs.map(one).filter((p) => p !== undefined && p !== null);
  const out = { ...fault };
  for (const k of ["node", "target"]) {
    if (k in out) {
      out[k] = one(out[k]);
      if (out[k] === undefined) return { skip: `${algorithm} has no ${fault[k]}` };
    }
  }
  for (const k of LISTS) if (Array.isArray(out[k])) out[k] = list(out[k]);
  if (Array.isArray(out.groups)) out.groups = out.groups.map(list).filter((g) => g.length > 0);
  if (missing) return { skip: "no node leads at this instant" };
  if (out.groups && out.groups.length < 2) {
    const dropped = !lease && fault.groups.some((g) => g.some((p) => p === "store" || p === "resource"));
    return { skip: dropped ? `${algorithm} has no store or resource, so the partition leaves one side only` : "the partition leaves one side only" };
  }
  for (const k of LISTS) if (Array.isArray(out[k]) && out[k].length === 0) return { skip: `it names no process of this ${algorithm} world` };
  return { fault: out };
}
