// The lease-margin diagram: one TTL drawn as a bar, showing what uses it up. The holder must
// renew within `ttl - margin` of its request's send time (rule 4), and the margin must absorb
// clock drift between holder and store over one TTL (rule 5); whatever is left is the
// longest pause the margin alone can hide. Beyond it, only fencing protects the resource.
import { html, svg } from "./svg.js";

/**
 * Draws the diagram for `{ ttl, margin, renew, rtt, driftPpm }` (ms, ppm) into `root`,
 * replacing its content. Returns the figures it drew.
 */
export function renderMargin(root, { ttl, margin, renew, rtt, driftPpm }) {
  const W = 320;
  const x = (ms) => 4 + ((W - 8) * Math.max(0, Math.min(ms, ttl))) / ttl;
  // The holder's clock against the store's, over one TTL (rule 5).
  const drift = (ttl * driftPpm) / 1e6;
  const pauseBudget = margin - drift;
  const slack = ttl - margin - renew - rtt;
  const seg = (from, to, cls, label, row = 0) => {
    const g = svg("g", { class: `seg ${cls}` });
    g.append(svg("rect", { x: x(from), y: 18 + row * 26, width: Math.max(0, x(to) - x(from)), height: 16 }));
    g.append(svg("title", {}, label));
    return g;
  };
  const deadline = ttl - margin;
  const picture = svg(
    "svg",
    { viewBox: `0 0 ${W} 78`, class: "margin-svg", role: "img", "aria-label": "How one lease TTL is used" },
    svg("text", { x: 4, y: 12, class: "t" }, "request sent"),
    svg("text", { x: W - 4, y: 12, class: "t end" }, `TTL ${ttl} ms`),
    seg(0, renew, "renew", `renew interval ${renew} ms`),
    seg(renew, renew + rtt, "rtt", `worst round trip ${rtt} ms`),
    seg(renew + rtt, deadline, "slack", `room for retries ${Math.max(0, slack)} ms`),
    seg(deadline, ttl, "margin", `safety margin ${margin} ms`),
    seg(deadline, Math.min(ttl, deadline + drift), "drift", `drift over one TTL: ${drift.toFixed(0)} ms`, 1),
    pauseBudget > 0 ? seg(deadline + drift, ttl, "pause", `pause the margin hides: ${pauseBudget.toFixed(0)} ms`, 1) : svg("g"),
    svg("line", { x1: x(deadline), x2: x(deadline), y1: 14, y2: 64, class: "deadline" }),
    svg("text", { x: x(deadline) - 3, y: 74, class: "t end" }, "local deadline"),
  );
  const verdict =
    slack < 0
      ? `Renew interval + round trip (${renew + rtt} ms) do not fit in TTL − margin (${deadline} ms): the config is refused (rule 5).`
      : pauseBudget <= 0
        ? `Drift (${drift.toFixed(0)} ms over one TTL) exceeds the margin (${margin} ms): a leader may act after its lease ended. Only fencing protects the resource.`
        : `The margin absorbs ${drift.toFixed(0)} ms of drift and hides pauses up to ${pauseBudget.toFixed(0)} ms. A longer pause needs fencing.`;
  const legend = html(
    "ul",
    { class: "margin-legend" },
    html("li", { class: "renew", text: "renew" }),
    html("li", { class: "rtt", text: "round trip" }),
    html("li", { class: "slack", text: "retries" }),
    html("li", { class: "margin", text: "margin" }),
    html("li", { class: "drift", text: "drift" }),
    html("li", { class: "pause", text: "pause budget" }),
  );
  root.replaceChildren(picture, legend, html("p", { class: pauseBudget <= 0 || slack < 0 ? "verdict bad" : "verdict", "data-testid": "margin-verdict", text: verdict }));
  return { drift, pauseBudget, slack };
}
