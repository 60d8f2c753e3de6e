// The store contract (pkg/README.md "The store contract"; design rules 2, 3, 8, 9) as named
// cases, each a short script of real requests with real waits across ttl boundaries. A case
// fails with the first rule it sees broken; `saw` keeps every exchange for the report.

/** Thrown by `expect`: the rule the store broke. */
export class Breach extends Error {}

/** Strictly greater, and exactly +1 where the store promises consecutive numbering. */
function greater(c, before, after, what) {
  c.expect(after > before, `${what}: token #${after} is not greater than #${before} (a new grant must get a token never issued before)`);
  if (c.numbering === "consecutive") c.expect(after === before + 1n, `${what}: token #${after} after #${before} is not +1 (this store promises consecutive tokens)`);
}

// Frozen, cases and list: `contractCases` is this list, and a caller that emptied or edited
// it would make checkStoreContract run nothing and pass.
export const CASES = [
  {
    name: "first_grant_issues_a_token",
    rule: "Acquire on a free key is Granted with a bigint token and the ttl the store recorded",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      c.expect(g.type === "Granted", `a free key was answered ${g.type}, not Granted`);
    },
  },
  {
    name: "held_while_another_holds",
    rule: "Acquire while another holder's lease is valid is Held (holder and remaining_ms, if given, are right)",
    async run(c) {
      const g = await c.as("A").acquire();
      c.expect(g.type === "Granted", `the first Acquire was answered ${g.type}`);
      const h = await c.as("B").acquire();
      c.expect(h.type === "Held", `B's Acquire during A's lease was answered ${h.type}, not Held`);
      if (h.holder !== undefined) c.expect(h.holder === "A", `Held names holder ${JSON.stringify(h.holder)}, the lease is A's`);
      if (h.remaining_ms !== undefined) c.expect(h.remaining_ms > 0 && h.remaining_ms <= g.ttl_ms + c.resolutionMs, `Held.remaining_ms ${h.remaining_ms} is outside (0, ${g.ttl_ms}]`);
    },
  },
  {
    name: "regrant_to_current_holder_keeps_token",
    rule: "Acquire by the current valid (holder, session) re-grants the same token and extends the lease to now + ttl",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      await c.sleep(g.ttl_ms * 0.5);
      const again = await a.acquire();
      c.expect(again.type === "Granted", `A's second Acquire, during its own lease, was answered ${again.type}: a contender would be locked out by its own orphaned lease until it lapses`);
      c.expect(again.token === g.token, `the re-grant changed the token #${g.token} -> #${again.token}`);
      await c.sleep(again.ttl_ms * 0.7);
      const h = await c.as("B").acquire();
      c.expect(h.type === "Held", `1.2 ttl after the first grant and 0.7 ttl after the re-grant, B was answered ${h.type}: the re-grant did not extend the lease`);
    },
  },
  {
    name: "renew_keeps_token_and_extends",
    rule: "Renew by the holder answers Renewed with the same token and extends the lease to now + ttl",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      await c.sleep(g.ttl_ms * 0.5);
      const r = await a.renew(g.token);
      c.expect(r.type === "Renewed", `A's Renew during its lease was answered ${r.type}`);
      c.expect(r.token === g.token, `the renewal changed the token #${g.token} -> #${r.token} (a lone contender would flap)`);
      await c.sleep(r.ttl_ms * 0.7);
      const h = await c.as("B").acquire();
      c.expect(h.type === "Held", `0.7 ttl after the renewal (1.2 ttl after the grant), B was answered ${h.type}: the renewal did not extend the lease`);
      const again = await a.renew(g.token);
      c.expect(again.type === "Renewed" && again.token === g.token, `A's next Renew was answered ${again.type} #${again.token}`);
    },
  },
  {
    name: "renew_after_expiry_is_refused",
    rule: "Renew fails (Rejected) once the lease has expired on the store's clock",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      await c.pastExpiry(g);
      const r = await a.renew(g.token);
      c.expect(r.type === "Rejected", `a Renew after the lease expired was answered ${r.type}`);
    },
  },
  {
    name: "renew_needs_holder_session_and_token",
    rule: "Renew by another holder, another session or with another token is Rejected and changes nothing",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      for (const [who, token] of [[c.as("B"), g.token], [c.as("A", 2), g.token], [a, g.token + 1n]]) {
        const r = await who.renew(token);
        c.expect(r.type === "Rejected", `${who.name} Renew #${token} of A's lease #${g.token} was answered ${r.type}`);
      }
      const ok = await a.renew(g.token);
      c.expect(ok.type === "Renewed", `after the refused renewals, A's own Renew was answered ${ok.type}`);
    },
  },
  {
    name: "new_holder_after_expiry_gets_greater_token",
    rule: "A new holder's grant after expiry gets a token greater than every token issued before",
    async run(c) {
      const g = await c.as("A").acquire();
      await c.pastExpiry(g);
      const b = await c.as("B").acquire();
      c.expect(b.type === "Granted", `after A's lease expired, B was answered ${b.type}`);
      greater(c, g.token, b.token, "B's grant after A's lease expired");
    },
  },
  {
    name: "same_holder_after_expiry_gets_greater_token",
    rule: "The same (holder, session) granted again after its lease expired gets a greater token",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      await c.pastExpiry(g);
      const again = await a.acquire();
      c.expect(again.type === "Granted", `A's Acquire after its own lease expired was answered ${again.type}`);
      greater(c, g.token, again.token, "A's grant after its own lease expired");
    },
  },
  {
    name: "release_ends_the_lease_now",
    rule: "Release by (holder, session, token) ends the lease at once; releasing twice is harmless",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      const r = await a.release(g.token);
      c.expect(r.type === "Released", `A's Release of its lease was answered ${r.type}`);
      const b = await c.as("B").acquire();
      c.expect(b.type === "Granted", `right after A released, B was answered ${b.type}`);
      greater(c, g.token, b.token, "B's grant after A released");
      const twice = await a.release(g.token);
      c.expect(twice.type === "Released" || twice.type === "Rejected", `A's second Release was answered ${twice.type}`);
      const h = await c.as("C").acquire();
      c.expect(h.type === "Held", `after A's second Release, C was answered ${h.type}: B's lease was harmed`);
    },
  },
  {
    name: "release_is_final_for_its_holder",
    rule: "After its own Release, the holder's Renew of that token is refused, and its next Acquire is a new grant with a greater token",
    async run(c) {
      const a = c.as("A");
      const g = await a.acquire();
      const r = await a.release(g.token);
      c.expect(r.type === "Released", `A's Release of its lease was answered ${r.type}`);
      const renew = await a.renew(g.token);
      c.expect(renew.type === "Rejected", `A's Renew of #${g.token} after releasing it was answered ${renew.type}: a released lease came back`);
      const again = await a.acquire();
      c.expect(again.type === "Granted", `A's Acquire after its own Release was answered ${again.type}`);
      greater(c, g.token, again.token, "A's grant after its own Release");
    },
  },
  {
    name: "release_by_another_changes_nothing",
    rule: "Release by another holder or session, or with another token, leaves the lease in place",
    async run(c) {
      const g = await c.as("A").acquire();
      for (const [who, token] of [[c.as("B"), g.token], [c.as("A", 2), g.token], [c.as("A"), g.token + 1n]]) {
        const r = await who.release(token);
        c.expect(r.type !== "Released", `${who.name} Release #${token} of A's lease #${g.token} was answered Released`);
        const h = await c.as("C").acquire();
        c.expect(h.type === "Held", `after ${who.name} Release #${token}, C was answered ${h.type}: the lease was released`);
      }
    },
  },
  {
    name: "session_is_part_of_identity",
    rule: "A second session of the same holder id is Held out while the first holds (design rule 8), never given its token",
    async run(c) {
      const g = await c.as("A").acquire();
      const other = await c.as("A", 2).acquire();
      c.expect(other.type === "Held", `A's second session was answered ${other.type} during the first session's lease`);
      if (other.holder !== undefined) c.expect(other.holder === "A", `Held names ${JSON.stringify(other.holder)}, the lease is A's`);
      await c.pastExpiry(g);
      const next = await c.as("A", 2).acquire();
      c.expect(next.type === "Granted", `after the first session's lease expired, the second was answered ${next.type}`);
      greater(c, g.token, next.token, "the second session's grant");
    },
  },
  {
    name: "expiry_uses_ttl_recorded_at_grant",
    rule: "Expiry is judged on the store's clock with the ttl recorded at the grant, not a contender's ttl",
    async run(c) {
      const g = await c.as("A").acquire();
      const long = await c.as("B").acquire(c.ttlMs * 20);
      c.expect(long.type === "Held", `B (asking for 20 ttl) was answered ${long.type} during A's lease`);
      await c.pastExpiry(g);
      const b = await c.as("B").acquire();
      c.expect(b.type === "Granted", `once A's lease (ttl ${g.ttl_ms} ms) expired, B was answered ${b.type}`);
    },
  },
  {
    name: "tokens_never_reused",
    rule: "Over grants to several holders, by release and by expiry, every token is greater than all before",
    async run(c) {
      const seen = [];
      for (const [i, name] of ["A", "B", "A", "C", "B"].entries()) {
        const who = c.as(name);
        const g = await who.acquire();
        c.expect(g.type === "Granted", `grant ${i + 1} (${name}) was answered ${g.type}`);
        if (seen.length > 0) greater(c, seen[seen.length - 1], g.token, `grant ${i + 1} (${name})`);
        seen.push(g.token);
        if (i === 2) await c.pastExpiry(g);
        else await who.release(g.token);
      }
    },
  },
];
Object.freeze(CASES);
for (const c of CASES) Object.freeze(c);
