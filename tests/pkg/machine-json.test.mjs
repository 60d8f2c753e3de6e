// Each machine's toJSON() reads back: `fromJSON` takes the summary (or its JSON text) and builds
// a machine of the same class and config, as a restart would (pkg/machine-json.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { BullyNode, LeaseCandidate, RaftNode } from "tenure";

const MACHINES = [
  [LeaseCandidate, { holder: 5n, key: "orders", ttl_ms: 4_000 }],
  [RaftNode, { id: 1n, peers: [2n, 3n], election_timeout_ms: 200, election_timeout_max_ms: 400 }],
  [BullyNode, { id: 3n, peers: [1n, 2n], heartbeat_interval_ms: 40 }],
];

for (const [Machine, config] of MACHINES) {
  test(`${Machine.name}_to_json_reads_back_as_an_object_and_as_text`, () => {
    const original = new Machine(config);
    const summary = original.toJSON();
    for (const json of [summary, JSON.stringify(summary)]) {
      const copy = Machine.fromJSON(json);
      assert.ok(copy instanceof Machine);
      assert.deepEqual(copy.config, original.config, "the same config, bigints included");
      assert.deepEqual(copy.toJSON(), summary);
    }
  });
}

test("from_json_starts_over_like_a_restart", () => {
  const node = new RaftNode({ id: 1n, peers: [] });
  for (let i = 0; i < 10 && node.role !== "Leader"; i++) {
    node.handleTimeout(node.pollTimeout());
    while (node.pollOutput() !== undefined);
  }
  assert.equal(node.role, "Leader", "a node with no peers elects itself");
  assert.ok(node.term >= 1n);
  const copy = RaftNode.fromJSON(node.toJSON());
  assert.equal(copy.role, "Follower");
  assert.equal(copy.term, 0n, "the summary holds no persistent state");
});

test("from_json_refuses_what_is_not_a_summary_in_its_words", () => {
  const cases = [
    [5, /^LeaseCandidate\.fromJSON: expected what LeaseCandidate's toJSON\(\) returns \(an object with a config\), got number$/],
    [null, /got null$/],
    [[], /got an array$/],
    ["{", /^LeaseCandidate\.fromJSON: the text is not JSON/],
    [{ config: 3 }, /^LeaseCandidate\.fromJSON: the summary's config must be an object, got number$/],
  ];
  for (const [input, words] of cases) {
    assert.throws(() => LeaseCandidate.fromJSON(input), (e) => e instanceof TypeError && e.code === "ERR_OBJECT_TYPE" && words.test(e.message), String(input));
  }
  // The config is checked by the constructor, in its words.
  assert.throws(() => LeaseCandidate.fromJSON({ config: { holder: "five" } }), (e) => e.code === "ERR_NODE_ID_TYPE" && /config\.holder/.test(e.message));
  assert.throws(() => RaftNode.fromJSON({ config: { id: "1", peers: ["2", "x"] } }), (e) => typeof e.code === "string" && /peers/.test(e.message));
});
