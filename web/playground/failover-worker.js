// The failover lab's worker: runs the simulator's failover and false-election measurements
// (the wasm `failoverMeasure` and `falseElections`, the code the CLI's `failover` runs) off
// the page's thread. Messages in: `{ id, setting, seed, runs, disturbance? }`; out:
// `{ id, report, cost }` or `{ id, error: { message, code } }`.
import init, { failoverMeasure, falseElections } from "tenure/search";

const ready = init();

self.onmessage = async (e) => {
  const { id, setting, seed, runs, disturbance } = e.data;
  try {
    await ready;
    const report = failoverMeasure(setting, seed, runs);
    const cost = disturbance ? falseElections(setting, seed, disturbance) : null;
    self.postMessage({ id, report, cost });
  } catch (err) {
    self.postMessage({ id, error: { message: String(err?.message ?? err), code: err?.code } });
  }
};
