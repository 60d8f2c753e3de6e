// Per-call cost of the lease machines from JS (figures only): one renew round trip is
// handleTimeout -> pollOutput (Renew) -> LeaseStore.handle -> handleResponse -> pollOutput,
// i.e. 5 calls across the JS/wasm boundary with plain-object conversion both ways.
import { FencedResource, LeaseCandidate, LeaseStore } from "tenure";
import { formatNs, timePerOp } from "./_timing.mjs";

function leader() {
  const store = new LeaseStore();
  const candidate = new LeaseCandidate({ holder: 1n, seed: 1n });
  candidate.campaign(0);
  for (let out = candidate.pollOutput(); out; out = candidate.pollOutput()) {
    if (out.type === "Send") candidate.handleResponse(0, store.handle(0, out.request));
  }
  return { store, candidate };
}

export default function bench() {
  const { store, candidate } = leader();
  const renew = timePerOp(() => {
    const t = candidate.pollTimeout();
    candidate.handleTimeout(t);
    for (let out = candidate.pollOutput(); out; out = candidate.pollOutput()) {
      if (out.type === "Send") candidate.handleResponse(t, store.handle(t, out.request));
    }
  });
  if (candidate.state !== "Leader") throw new Error(`the benchmark lost leadership: ${candidate.state}`);

  const check = timePerOp(() => candidate.assertLeadership(candidate.now));
  const s = new LeaseStore();
  const request = { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 10_000 };
  const handle = timePerOp((i) => s.handle(i, request));
  const resource = new FencedResource();
  const write = timePerOp(() => resource.write(1n, "v"));

  // The goal (docs/bindings.md): a renew round trip from JS within 3 us.
  const goal = renew <= 3_000 ? "met" : "NOT YET MET";
  console.log(`LeaseCandidate renew round trip (5 boundary calls): ${formatNs(renew)} (goal <= 3 us: ${goal})`);
  console.log(`LeaseCandidate.assertLeadership:                    ${formatNs(check)}`);
  console.log(`LeaseStore.handle (Acquire, idempotent re-grant):   ${formatNs(handle)}`);
  console.log(`FencedResource.write:                               ${formatNs(write)}`);
}
