// The chaos run's safety assertions, shared by the three stores' chaos tests.
import assert from "node:assert/strict";
import { inspect } from "node:util";

const show = (v) => inspect(v, { depth: 4, breakLength: 140 });

export function assertChaosSafe(name, r) {
  const f = r.failoverMs;
  console.log(
    `# ${name} chaos: failover after SIGSTOP min ${f.min.toFixed(0)} / median ${f.median.toFixed(0)} / max ${f.max.toFixed(0)} ms ` +
      `(ttl ${r.ttlMs} ms); graceful handover ${r.handoverMs.toFixed(0)} ms; ${r.acceptedWrites} writes accepted, ` +
      `${r.refusedWrites} late writes refused, ${r.windows} leadership windows, ${r.errors} store errors reported`,
  );
  assert.equal(r.staleAccepted.length, 0, `stale writes accepted: ${show(r.staleAccepted)}`);
  assert.equal(r.overlaps.length, 0, `two processes' checks passed at once: ${show(r.overlaps)}`);
  assert.equal(r.resumedChecksPassed, 0, `a resumed leader's first check passed: ${show(r.rounds.map((x) => x.resumedFirstCheck))}`);
  assert.equal(r.unauditedAccepted, 0, "every write reported accepted is in the audit table");
  assert.equal(r.auditedWrites, r.acceptedWrites, "and the audit has no write nobody reported");
  for (const round of r.rounds) {
    assert.ok(round.newToken > round.oldToken, `round ${round.round}: the new leader's token ${round.newToken} > ${round.oldToken}`);
    assert.ok(round.failoverMs >= r.ttlMs * 0.5, `round ${round.round}: failover ${round.failoverMs} ms cannot beat the stopped lease`);
  }
  assert.ok(r.acceptedWrites >= 10, `the leaders wrote (${r.acceptedWrites} accepted)`);
}
