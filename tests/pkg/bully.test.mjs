// BullyNode through the built package: the highest live id wins, a
// crashed coordinator is replaced, and a restarted top id rejoins through an election that
// the others see (S14, nirvik/iWant#1; design rule 7).
import assert from "node:assert/strict";
import { test } from "node:test";
import { BullyNode } from "tenure";
import { Cluster, show } from "./helpers/cluster.mjs";

const IDS = [1n, 2n, 3n];
const config = (id) => ({ id, peers: IDS.filter((p) => p !== id), seed: 10n + id });
const views = (cluster) => [...cluster.nodes.values()].filter((n) => !cluster.down.has(n.id)).map((n) => [n.id, n.role, n.coordinator]);

test("highest_id_becomes_coordinator_and_the_others_follow_it", () => {
  const cluster = new Cluster(IDS.map((id) => new BullyNode(config(id))));
  cluster.runUntil(500);
  assert.deepEqual(views(cluster), [
    [1n, "Follower", 3n],
    [2n, "Follower", 3n],
    [3n, "Coordinator", 3n],
  ]);
  const n3 = cluster.nodes.get(3n);
  assert.ok(cluster.eventsOf(3n, "BecameCoordinator").length >= 1);
  assert.equal(n3.nextTimer.kind, "Heartbeat");
  assert.deepEqual(n3.persisted, { epoch: n3.epoch });
  assert.equal(cluster.nodes.get(1n).coordinatorEpoch, n3.epoch);
  const persists = cluster.outputs.get(3n).filter((o) => o.type === "Persist");
  assert.ok(persists.length >= 1 && persists.every((p) => typeof p.state.epoch === "bigint"));
});

test("s14_coordinator_crash_then_restart_rejoins_through_an_election", () => {
  const cluster = new Cluster(IDS.map((id) => new BullyNode(config(id))));
  cluster.runUntil(500);
  const persisted = cluster.nodes.get(3n).persisted;
  cluster.crash(3n);
  cluster.runUntil(2_000);
  assert.deepEqual(views(cluster), [
    [1n, "Follower", 2n],
    [2n, "Coordinator", 2n],
  ], "2 takes over once 3's heartbeats stop");

  const restarted = BullyNode.restart(config(3n), persisted);
  assert.equal(restarted.coordinator, undefined, "volatile view starts empty");
  assert.equal(restarted.epoch, persisted.epoch);
  cluster.restart(restarted);
  cluster.runUntil(3_000);
  assert.deepEqual(views(cluster), [
    [1n, "Follower", 3n],
    [2n, "Follower", 3n],
    [3n, "Coordinator", 3n],
  ]);
  const down = cluster.eventsOf(2n, "SteppedDown");
  assert.equal(down.length, 1, show(down));
  assert.equal(down[0].event.reason.type, "HigherCoordinator");
  assert.ok(restarted.epoch > persisted.epoch, "a fresh epoch above the persisted one");
});

test("partition_allows_two_coordinators_documented_limitation", () => {
  // design rule 7: Bully has no safety under partition; each side elects its highest id.
  const cluster = new Cluster(IDS.map((id) => new BullyNode(config(id))));
  cluster.runUntil(500);
  for (const [a, b] of [[1n, 3n], [2n, 3n]]) {
    cluster.cut.add(`${a}>${b}`);
    cluster.cut.add(`${b}>${a}`);
  }
  cluster.runUntil(2_000);
  const coordinators = [...cluster.nodes.values()].filter((n) => n.role === "Coordinator").map((n) => n.id);
  assert.deepEqual(coordinators, [2n, 3n]);
});

test("stale_epoch_is_answered_with_the_current_coordinator", () => {
  const cluster = new Cluster(IDS.map((id) => new BullyNode(config(id))));
  cluster.runUntil(500);
  const n1 = cluster.nodes.get(1n);
  const before = cluster.outputs.get(1n).length;
  cluster.input(1n, (n) => n.handleMessage(cluster.now, 2n, { type: "Heartbeat", epoch: 0n }));
  const replies = cluster.outputs.get(1n).slice(before).filter((o) => o.type === "Send");
  assert.deepEqual(replies, [{ type: "Send", to: 2n, msg: { type: "Coordinator", coordinator: 3n, epoch: n1.coordinatorEpoch } }]);
});
