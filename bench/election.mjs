// `npm run bench` figures for the LeaderElection driver on MemoryStore, each next to the raw
// machine's figure (the same calls bench/lease.mjs times) and their ratio:
// - assertLeadership(): the driver adds a clock read and rounding to the machine's call;
// - one renew round trip: raw, 5 boundary calls driven by hand; through LeaderElection, the
//   whole path a renewal takes in a service (timer fires, clock, handleTimeout, translation
//   to the store protocol, MemoryStore.send over LeaseStore, promise, reading the answer,
//   handleResponse, re-arming the timer). It is timer-driven, so it is measured as CPU time
//   (process.cpuUsage) per renewal over a run renewing every 1 ms.
import { LeaderElection, LeaseCandidate, LeaseStore, MemoryStore } from "tenure";
import { formatNs, timePerOp } from "./_timing.mjs";

const GOALS = {
  check: "goal: <= 3x the machine's call (a clock read and a rounding on top)",
  renew: "goal: <= 1 ms CPU per renewal, under 0.03% of a core at the default 10 s ttl (a renewal every 3.3 s)",
};

function rawLeader() {
  const store = new LeaseStore();
  const candidate = new LeaseCandidate({ holder: 1n, seed: 1n });
  candidate.campaign(0);
  for (let out = candidate.pollOutput(); out; out = candidate.pollOutput()) {
    if (out.type === "Send") candidate.handleResponse(0, store.handle(0, out.request));
  }
  return { store, candidate };
}

async function renewCost() {
  const store = new MemoryStore();
  let renewals = 0;
  const counting = { send: (req) => (req.type === "Renew" && renewals++, store.send(req)) };
  const election = new LeaderElection({ store: counting, key: "bench", nodeId: "b", ttlMs: 1000, safetyMarginMs: 100, renewIntervalMs: 1, maxRoundTripMs: 100 });
  await election.campaign();
  const hold = setInterval(() => {}, 1000); // keep the process alive while the timers run
  await new Promise((r) => setTimeout(r, 200)); // warm-up
  const before = process.cpuUsage();
  const start = renewals;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 1500));
  const cpu = process.cpuUsage(before);
  const n = renewals - start;
  const wall = performance.now() - t0;
  clearInterval(hold);
  if (!election.isLeader) throw new Error("the benchmark lost leadership");
  await election.close();
  return { cpuNs: ((cpu.user + cpu.system) * 1000) / n, n, wall };
}

export default async function bench() {
  const { store, candidate } = rawLeader();
  const rawRenew = timePerOp(() => {
    const t = candidate.pollTimeout();
    candidate.handleTimeout(t);
    for (let out = candidate.pollOutput(); out; out = candidate.pollOutput()) {
      if (out.type === "Send") candidate.handleResponse(t, store.handle(t, out.request));
    }
  });
  const rawCheck = timePerOp(() => candidate.assertLeadership(candidate.now));

  const election = new LeaderElection({ store: new MemoryStore(), key: "bench", nodeId: "a", ttlMs: 60_000 });
  await election.campaign();
  const check = timePerOp(() => election.assertLeadership());
  await election.close();
  const renew = await renewCost();

  console.log(`assertLeadership: LeaderElection ${formatNs(check)}, LeaseCandidate ${formatNs(rawCheck)}, ratio ${(check / rawCheck).toFixed(2)}  (${GOALS.check})`);
  console.log(
    `renew round trip: LeaderElection on MemoryStore ${formatNs(renew.cpuNs)} CPU (${renew.n} renewals in ${renew.wall.toFixed(0)} ms), raw machine + LeaseStore ${formatNs(rawRenew)}, ratio ${(renew.cpuNs / rawRenew).toFixed(1)}  (${GOALS.renew})`,
  );
}
