// Actions as data: the fault menus for a node, the store, the resource and a link, each a
// table of [label, handler, options]. Handlers only build fault objects (the scenario's own
// JSON shapes) and hand them to `inject`; the simulator applies them.

/** The scenario JSON name of a process key: `n3` -> 3, `store` -> "store". */
export function procOf(key) {
  return key.startsWith("n") ? Number(key.slice(1)) : key;
}

/**
 * Menu rows for clicking process `key`. `node` is its snapshot view, `values` the menu's
 * number inputs ({ pauseMs, offsetMs, driftPct }), `lease` whether the world is a lease world.
 * Each row: [label, handler, { testid, disabled }].
 */
export function procActions(key, node, values, lease, inject) {
  const p = procOf(key);
  const crashed = node?.status === "crashed";
  if (key === "store") {
    return [
      [`Outage for ${values.pauseMs} ms`, () => inject({ type: "store-outage", duration_ms: values.pauseMs }), { testid: "action-store-outage" }],
      [`Pause for ${values.pauseMs} ms`, () => inject({ type: "pause", target: p, duration_ms: values.pauseMs }), { testid: "action-pause" }],
      [`Clock jumps +${values.offsetMs} ms`, () => inject({ type: "clock-jump", target: p, by_ms: values.offsetMs }), { testid: "action-clock-jump" }],
      ["Isolate", () => inject({ type: "isolate", nodes: [p] }), { testid: "action-isolate" }],
    ];
  }
  if (key === "resource") {
    return [
      [`Pause for ${values.pauseMs} ms`, () => inject({ type: "pause", target: p, duration_ms: values.pauseMs }), { testid: "action-pause" }],
      ["Isolate", () => inject({ type: "isolate", nodes: [p] }), { testid: "action-isolate" }],
    ];
  }
  const ppm = Math.round(values.driftPct * 10000);
  return [
    crashed
      ? ["Restart", () => inject({ type: "restart", node: p }), { testid: "action-restart" }]
      : ["Crash", () => inject({ type: "crash", node: p }), { testid: "action-crash" }],
    [`Pause for ${values.pauseMs} ms`, () => inject({ type: "pause", target: p, duration_ms: values.pauseMs }), { testid: "action-pause", disabled: crashed }],
    ...(lease
      ? [[`Pause ${values.pauseMs} ms after its next check`, () => inject({ type: "pause-after-check", node: p, duration_ms: values.pauseMs }), { testid: "action-pause-after-check", disabled: crashed }]]
      : []),
    [`Clock offset +${values.offsetMs} ms`, () => inject({ type: "clock-offset", target: p, offset_ms: values.offsetMs }), { testid: "action-clock-forward" }],
    [`Clock offset −${values.offsetMs} ms`, () => inject({ type: "clock-offset", target: p, offset_ms: -values.offsetMs }), { testid: "action-clock-back" }],
    [`Clock drift ${values.driftPct >= 0 ? "+" : ""}${values.driftPct}%`, () => inject({ type: "clock-drift", target: p, ppm }), { testid: "action-drift" }],
    ["Isolate", () => inject({ type: "isolate", nodes: [p] }), { testid: "action-isolate" }],
  ];
}

/** Menu rows for clicking the link between `a` and `b`. */
export function linkActions(a, b, inject) {
  const pa = procOf(a);
  const pb = procOf(b);
  return [
    [`Cut ${a} → ${b}`, () => inject({ type: "partition-one-way", from: [pa], to: [pb] }), { testid: "action-cut-ab" }],
    [`Cut ${b} → ${a}`, () => inject({ type: "partition-one-way", from: [pb], to: [pa] }), { testid: "action-cut-ba" }],
    ["Cut both ways", () => inject({ type: "partition", groups: [[pa], [pb]] }), { testid: "action-cut-both" }],
    ["Heal all links", () => inject({ type: "heal" }), { testid: "action-heal" }],
  ];
}

/** The partition a line drawn across the cluster makes: the processes on each side. */
export function partitionOf(sides) {
  return { type: "partition", groups: sides.map((side) => side.map(procOf)) };
}

/** Network-wide faults from the fault sliders: every process to every process. */
export function networkActions(procs, values, lease, inject) {
  const all = procs.map(procOf);
  return [
    ["Apply loss", () => inject({ type: "link-loss", from: all, to: all, probability: values.loss }), { testid: "action-loss" }],
    ["Apply latency", () => inject({ type: "link-latency", from: all, to: all, min_ms: Math.min(values.latencyMin, values.latencyMax), max_ms: values.latencyMax }), { testid: "action-latency" }],
    ...(lease ? [[`Store outage ${values.outageMs} ms`, () => inject({ type: "store-outage", duration_ms: values.outageMs }), { testid: "action-outage" }]] : []),
    ["Heal all", () => inject({ type: "heal" }), { testid: "action-heal-all" }],
  ];
}
