// The cluster view: draws one snapshot as SVG. Nodes sit on a ring, coloured by role with a
// shape and a text label as well; timers and leases are shrinking arcs; messages move between
// processes by their send and arrival times; dropped ones fade out. In lease worlds the store
// sits in the middle of the ring and the fenced resource beside it.
//
// It reads only the snapshot (the lease arcs' full spans included) and reports clicks
// and drawn lines through callbacks; it never calls the model.
import { procKey } from "./procs.js";
import { arcPath, setAttrs, setText, svg, syncKeyed, syncRecycled } from "./svg.js";

export const VIEW_W = 640;
export const VIEW_H = 420;
const FADE_MS = 500;
const FLASH_MS = 400;
/**
 * While playing, the descriptions nobody reads at frame rate (tooltips, accessible names, the
 * cluster's text alternative) are rewritten at most this often, ms, or when what they say
 * changes role or term; a full render (paused, a seek, a step) writes them at once.
 */
const DESCRIBE_EVERY_MS = 250;

const ROLE_TEXT = { leader: "leader", candidate: "candidate", follower: "follower", crashed: "crashed" };

/** Message kind -> family (colour and legend entry); responses are drawn hollow. */
export function messageFamily(kind) {
  if (/Vote|Election|Answer|Coordinator/.test(kind)) return "vote";
  if (/Heartbeat|AppendEntries/.test(kind)) return "beat";
  if (/Write|Establish/.test(kind)) return "write";
  return "store";
}
const RESPONSES = /Response|Answer|Granted|Held|Renewed|Released|Rejected|Established|WriteResult/;

/** Positions of every process for a snapshot's process list. */
export function layout(keys, isLease) {
  const nodes = keys.filter((k) => k.startsWith("n"));
  const cx = isLease ? 250 : VIEW_W / 2;
  const cy = VIEW_H / 2;
  const r = nodes.length <= 3 ? 140 : 160;
  const nodeR = nodes.length <= 7 ? 27 : 23;
  const pos = new Map();
  nodes.forEach((k, i) => {
    const a = (i / nodes.length) * 2 * Math.PI - Math.PI / 2;
    pos.set(k, { x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), r: nodeR });
  });
  if (isLease) {
    pos.set("store", { x: cx, y: cy, r: 34 });
    // Right of the ring's rightmost node and its labels (up to ~46 px either side of its
    // centre), with the resource's own half-width (54) and a gap between: with 9 nodes the
    // ring's right side holds two nodes near the resource's height.
    let right = cx + r;
    for (const p of pos.values()) if (Math.abs(p.y - cy) < 110) right = Math.max(right, p.x + 46);
    pos.set("resource", { x: Math.max(cx + r + 130, right + 54 + 40), y: cy, r: 52 });
  }
  // Crop the view to what is drawn (labels below nodes, the resource's verdict below it).
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [k, p] of pos) {
    const padX = k === "resource" ? 74 : k === "store" ? 50 : Math.max(p.r + 6, 46);
    x0 = Math.min(x0, p.x - padX);
    x1 = Math.max(x1, p.x + padX);
    y0 = Math.min(y0, p.y - p.r - (k.startsWith("n") ? 26 : k === "resource" ? 30 : 16));
    // The resource keeps its last refusal on a card under its verdict.
    y1 = Math.max(y1, p.y + p.r + (k === "resource" ? 86 : 46));
  }
  const bounds = { x: Math.floor(x0), y: Math.floor(y0), w: Math.ceil(x1 - x0), h: Math.ceil(y1 - y0) };
  return { pos, center: { x: cx, y: cy }, bounds };
}

export class ClusterView {
  /**
   * @param {SVGSVGElement} root
   * @param {{onProcClick?:Function, onLinkClick?:Function, onDrawLine?:Function}} handlers
   */
  constructor(root, handlers = {}) {
    this.root = root;
    this.handlers = handlers;
    // A group, not an image: it holds the nodes and links you act on. Its label is the text
    // alternative (who leads); one tab stop, arrow keys move between its parts.
    setAttrs(root, { viewBox: `0 0 ${VIEW_W} ${VIEW_H}`, role: "group", "aria-roledescription": "cluster", "data-testid": "cluster", tabindex: -1 });
    root.append(defs());
    this.gLinks = svg("g", { class: "links" });
    this.gCuts = svg("g", { class: "cuts" });
    this.gMsgs = svg("g", { class: "msgs" });
    this.gDrops = svg("g", { class: "drops" });
    this.gProcs = svg("g", { class: "procs" });
    this.gDraw = svg("g", { class: "drawn" });
    /** The resource's sticky card: outside its button, so the button's name stays its own. */
    this.gCard = svg("g", { class: "cards" });
    this.title = svg("title");
    root.prepend(this.title);
    // Messages travel under the processes, whose labels have a halo: a dot never hides a label.
    root.append(this.gLinks, this.gCuts, this.gMsgs, this.gDrops, this.gProcs, this.gCard, this.gDraw);
    /** Touch input draws partitions only in draw mode (a swipe scrolls the page). */
    this.drawMode = false;
    /** With prefers-reduced-motion: messages sit still mid-link instead of moving. */
    this.reducedMotion = false;
    this.bindDrawing();
    this.bindRoving();
    this.bindMessages();
  }

  /** The focusable parts in tab-arrow order: processes, links, then messages in flight. */
  focusables() {
    return [...this.gProcs.children, ...this.gLinks.querySelectorAll(".link-hit"), ...this.gMsgs.children];
  }

  /** Whether `el` is one of `focusables()`, without listing them (300 links at 25 nodes). */
  isFocusable(el) {
    const parent = el?.parentNode;
    return parent === this.gProcs || parent === this.gMsgs || (parent === this.gLinks && el.classList.contains("link-hit"));
  }

  /**
   * Messages you can touch: click, or Enter on one, opens its detail; hovering or focusing one
   * lights it elsewhere. One set of listeners on their group (messages come and go every
   * frame at speed), each event resolved to the message it happened in.
   */
  bindMessages() {
    const g = this.gMsgs;
    // A message's name is written in the frames that describe (nameMessage): one hovered,
    // focused or pressed before then is named at once.
    const msgOf = (e) => {
      const el = e.target.closest?.(".msg");
      if (el?._m) nameMessage(el);
      return el;
    };
    const outside = (el, other) => !(other instanceof Node && el.contains(other));
    g.addEventListener("click", (e) => {
      const el = msgOf(e);
      if (!el) return;
      e.stopPropagation();
      this.handlers.onMessageClick?.(el.dataset.msg, el);
    });
    g.addEventListener("keydown", (e) => {
      const el = msgOf(e);
      if (!el || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      e.stopPropagation();
      this.handlers.onMessageClick?.(el.dataset.msg, el, e.key);
    });
    g.addEventListener("pointerover", (e) => {
      const el = msgOf(e);
      if (el && outside(el, e.relatedTarget)) this.handlers.onMessageHover?.(el.dataset.msg);
    });
    g.addEventListener("pointerout", (e) => {
      const el = msgOf(e);
      if (el && outside(el, e.relatedTarget)) this.handlers.onMessageHover?.(null);
    });
    // Focus listeners on the root, which is out of the tab order already (tabindex -1): on
    // the group they would make Chromium give the group a tab stop of its own.
    this.root.addEventListener("focusin", (e) => {
      const el = msgOf(e);
      if (el) this.handlers.onMessageHover?.(el.dataset.msg);
    });
    this.root.addEventListener("focusout", (e) => {
      if (msgOf(e)) this.handlers.onMessageHover?.(null);
    });
  }

  /** Lights message `id` (hovered in another view), or none. */
  highlight(id) {
    this.lit = id;
    for (const el of this.gMsgs.children) el.classList.toggle("lit", (el._lit = el.dataset.msg === id));
  }

  /** One tab stop: the last focused part (the first process at first) has tabindex 0. */
  syncTabStop() {
    const items = this.focusables();
    const current = items.includes(this.current) ? this.current : items[0];
    this.current = current;
    for (const el of items) setAttrs(el, { tabindex: el === current ? 0 : -1 });
  }

  bindRoving() {
    this.root.addEventListener("focusin", (e) => {
      const el = e.target.closest?.(".proc, .link-hit");
      if (el && el !== this.current) {
        this.current = el;
        this.syncTabStop();
      }
    });
    this.root.addEventListener("keydown", (e) => {
      const items = this.focusables();
      const i = items.indexOf(e.target);
      if (i < 0) return;
      // End is the last link: messages come and go, so arrows reach them but End does not.
      const lastFixed = items.length - 1 - this.gMsgs.children.length;
      const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: lastFixed }[e.key];
      if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      e.stopPropagation();
      items[(to + items.length) % items.length].focus();
    });
  }

  /** An arc's fraction: smooth, or in eighths with reduced motion (a state, not a motion). */
  steps(f) {
    return this.reducedMotion ? Math.ceil(f * 8) / 8 : f;
  }

  /** Focuses process `key` (a shortcut target). Returns whether it exists. */
  focusProc(key) {
    const el = this.gProcs._keyed?.get(key);
    el?.focus();
    return Boolean(el);
  }

  /** Forgets the layout: call after a restart or a seek. */
  reset() {
    this.layoutKey = "";
    this.layoutIds = null;
  }

  /**
   * Whether `snap` has the processes and the store the layout was made for. Compared id by
   * id (a frame makes no key string for it): they change only with the scenario.
   */
  sameLayout(snap) {
    const ids = this.layoutIds;
    const nodes = snap.nodes;
    if (!ids || ids.length !== nodes.length + 1 || ids[nodes.length] !== (snap.store != null)) return false;
    for (let i = 0; i < nodes.length; i++) if (ids[i] !== nodes[i].id) return false;
    return true;
  }

  /** Whether a frame's draw at `wall` (performance.now()) rewrites the descriptions: it costs more. */
  describesAt(wall) {
    return !(wall - this.describedAt < DESCRIBE_EVERY_MS);
  }

  /**
   * Draws `snap` (a Snapshot: the lease arcs read their full spans from it too); `sticky` is the
   * resource's last refusal (or stale acceptance) so far, kept on a card. `full: false` (a
   * frame while playing) rewrites the descriptions (tooltips, accessible names) only every
   * DESCRIBE_EVERY_MS or when a role changes; what is drawn is the same either way.
   */
  render(snap, { sticky, full = true } = {}) {
    this.sticky = sticky;
    const wall = performance.now();
    const describing = full || this.describesAt(wall);
    if (describing) this.describedAt = wall;
    this.describing = describing;
    const now = snap.time_ms;
    const isLease = snap.store != null;
    if (!this.sameLayout(snap)) {
      const keys = snap.nodes.map((n) => procKey(n.id));
      this.layoutIds = [...snap.nodes.map((n) => n.id), isLease];
      this.layoutKey = `${keys.join(",")}|${isLease}`;
      this.geo = layout(keys, isLease);
      this.drawLinks(keys, isLease);
      const b = this.geo.bounds;
      setAttrs(this.root, { viewBox: `${b.x} ${b.y} ${b.w} ${b.h}` });
    }
    const { pos } = this.geo;
    if (describing) {
      const summary = describe(snap);
      setText(this.title, summary);
      setAttrs(this.root, { "aria-label": summary });
    }
    this.drawCuts(snap.blocked ?? []);
    syncKeyed(
      this.gProcs,
      snap.nodes,
      (n) => procKey(n.id),
      (n) => this.createProc(procKey(n.id)),
      (el, n) => this.updateProc(el, n, snap, now),
    );
    if (!this.isFocusable(this.current) || this.current.getAttribute("tabindex") !== "0") this.syncTabStop();
    // At speed every message is new each frame: the elements of those gone are reused.
    syncRecycled(
      this.gMsgs,
      snap.in_flight.filter((m) => pos.has(procKey(m.from)) && pos.has(procKey(m.to))),
      (m) => String(m.id) + ":" + m.arrival_ms,
      createMessage,
      assignMessage,
      (el, m) => updateMessage(el, m, pos, this.reducedMotion ? (m.send_ms + m.arrival_ms) / 2 : now, this.lit, describing),
    );
    syncRecycled(
      this.gDrops,
      (snap.dropped ?? []).filter((d) => now - d.time_ms < FADE_MS && pos.has(procKey(d.from)) && pos.has(procKey(d.to))),
      (d) => `${d.id}:${d.time_ms}`,
      createDrop,
      assignDrop,
      (el, d) => updateDrop(el, d, pos, now, describing),
    );
  }

  drawLinks(keys, isLease) {
    const { pos } = this.geo;
    this.gLinks.replaceChildren();
    this.gCuts.replaceChildren();
    this.gCuts._keyed = undefined;
    // The cuts are drawn again over the new links.
    this.cutsDrawn = null;
    /** Cuts drawn before and healed since, by key, for when the same link is cut again. */
    this.cutsKept = new Map();
    this.gProcs.replaceChildren();
    this.gProcs._keyed = undefined;
    this.gCard.replaceChildren();
    const nodes = keys.filter((k) => k.startsWith("n"));
    const pairs = [];
    if (isLease) {
      for (const n of nodes) pairs.push([n, "store"], [n, "resource"]);
    } else {
      for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) pairs.push([nodes[i], nodes[j]]);
    }
    for (const [a, b] of pairs) {
      const p = pos.get(a);
      const q = pos.get(b);
      const line = svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "link" });
      const hit = svg("line", {
        x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "link-hit",
        "data-testid": `link-${a}-${b}`, tabindex: -1, role: "button", "aria-haspopup": "dialog",
        "aria-label": `Link ${a} to ${b}: cut or heal`,
      });
      hit.addEventListener("click", (e) => this.handlers.onLinkClick?.(a, b, e, hit));
      hit.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" && e.key !== " ") return;
        e.preventDefault();
        e.stopPropagation();
        this.handlers.onLinkClick?.(a, b, linkMidpoint(hit), hit, e.key);
      });
      this.gLinks.append(line, hit);
    }
  }

  /**
   * Blocked links. Cut both ways: a red dashed line with a bar across its middle. One way:
   * a red dashed half-line on the sender's side with an arrow into the bar.
   */
  drawCuts(blocked) {
    // The same cuts as last frame (most frames): nothing to do (compared pair by pair, with
    // no string made: a partition of 25 nodes blocks some 300 directed links).
    if (this.cutsLayout === this.layoutKey && samePairs(blocked, this.cutsDrawn)) return;
    this.cutsLayout = this.layoutKey;
    this.cutsDrawn = blocked.map(([f, t]) => [f, t]);
    const { pos } = this.geo;
    const set = new Set(blocked.map(([f, t]) => `${procKey(f)}>${procKey(t)}`));
    const items = [];
    for (const k of set) {
      const [f, t] = k.split(">");
      if (!pos.has(f) || !pos.has(t)) continue;
      const both = set.has(`${t}>${f}`);
      if (both && f > t) continue;
      items.push({ f, t, both });
    }
    // Partitions come and go under chaos: a healed cut is kept aside for its link's next cut.
    syncRecycled(
      this.gCuts,
      items,
      ({ f, t, both }) => `${f}>${t}${both ? "=" : ""}`,
      ({ f, t, both }) => {
        const p = pos.get(f);
        const q = pos.get(t);
        const dx = q.x - p.x;
        const dy = q.y - p.y;
        const len = Math.hypot(dx, dy) || 1;
        const mx = p.x + dx * 0.5;
        const my = p.y + dy * 0.5;
        const bx = (-dy / len) * 8;
        const by = (dx / len) * 8;
        const g = svg("g", { class: `cut${both ? " both" : ""}`, "data-testid": `cut-${f}-${t}` },
          svg("title", {}, both ? `${f} ↔ ${t} cut both ways` : `${f} → ${t} cut: messages from ${f} to ${t} are lost`));
        if (both) {
          g.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y }));
        } else {
          const ox = (-dy / len) * 3.5;
          const oy = (dx / len) * 3.5;
          g.append(svg("line", { x1: p.x + ox, y1: p.y + oy, x2: mx + ox - (dx / len) * 3, y2: my + oy - (dy / len) * 3, "marker-end": "url(#cut-arrow)" }));
        }
        g.append(svg("line", { x1: mx - bx, y1: my - by, x2: mx + bx, y2: my + by, class: "cut-bar" }));
        return g;
      },
      null,
      () => {},
      this.cutsKept,
    );
  }

  createProc(key) {
    const { pos } = this.geo;
    const p = pos.get(key);
    const kind = key.startsWith("n") ? "node" : key;
    const g = svg("g", {
      class: `proc ${kind}`, transform: `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})`,
      "data-testid": key === "store" || key === "resource" ? key : `node-${key}`, tabindex: -1, role: "button", "aria-haspopup": "dialog",
    });
    g.addEventListener("click", (e) => this.handlers.onProcClick?.(key, g));
    // Enter or Space opens the menu and nothing else (the keystroke is consumed here).
    g.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      this.handlers.onProcClick?.(key, g, e.key);
    });
    const parts = { title: svg("title") };
    g.append(parts.title);
    if (kind === "node") {
      parts.lease = svg("path", { class: "lease-arc" });
      parts.timer = svg("path", { class: "timer-arc" });
      parts.body = svg("circle", { r: p.r, class: "body" });
      parts.name = svg("text", { class: "name", y: 5 }, key);
      parts.badge = svg("text", { class: "badge", y: -6 });
      parts.role = svg("text", { class: "role", y: p.r + 25 });
      parts.value = svg("text", { class: "value", y: p.r + 39 });
      parts.clock = svg("text", { class: "clock", y: -p.r - 15 });
      // Crashed: a badge at the upper left (the name stays readable in the middle).
      parts.cross = svg("g", { class: "cross", transform: `translate(${-p.r * 0.7} ${-p.r * 0.7})` },
        svg("circle", { r: 9 }), svg("path", { d: "M-4 -4L4 4M4 -4L-4 4" }));
      parts.pause = svg("g", { class: "pause-glyph", transform: `translate(${p.r * 0.7} ${-p.r * 0.7})` },
        svg("circle", { r: 9 }), svg("rect", { x: -4, y: -5, width: 3, height: 10 }), svg("rect", { x: 1, y: -5, width: 3, height: 10 }));
      g.append(parts.lease, parts.timer, parts.body, parts.cross, parts.name, parts.badge, parts.role, parts.value, parts.clock, parts.pause);
    } else if (kind === "store") {
      parts.body = svg("rect", { x: -46, y: -30, width: 92, height: 60, rx: 10, class: "body" });
      parts.name = svg("text", { class: "name", y: -12 }, "store");
      parts.line1 = svg("text", { class: "line", y: 5 });
      parts.line2 = svg("text", { class: "line", y: 19 });
      parts.bar = svg("rect", { class: "expiry", x: -38, y: 24, height: 3 });
      g.append(parts.body, parts.name, parts.line1, parts.line2, parts.bar);
    } else {
      parts.body = svg("path", { class: "body", d: "M-54 -34 v68 a54 12 0 0 0 108 0 v-68 a54 12 0 0 0 -108 0 a54 12 0 0 0 108 0" });
      // The name above the cylinder, like the nodes' labels; its values below the rim.
      parts.name = svg("text", { class: "name", y: -52 }, "resource");
      parts.line1 = svg("text", { class: "line", y: 0 });
      parts.big = svg("text", { class: "big", y: 24 });
      parts.flash = svg("g", { class: "flash", transform: "translate(0 66)" });
      parts.flashBg = svg("rect", { x: -66, y: -13, width: 132, height: 26, rx: 6 });
      parts.flashText = svg("text", { y: 5 });
      parts.flash.append(parts.flashBg, parts.flashText);
      parts.card = svg("g", { class: "sticky", transform: `translate(${p.x.toFixed(1)} ${(p.y + 104).toFixed(1)})`, "data-testid": "rejection-card", visibility: "hidden" });
      parts.cardBg = svg("rect", { x: -80, y: -18, width: 160, height: 36, rx: 6 });
      parts.card1 = svg("text", { y: -3 });
      parts.card2 = svg("text", { y: 12 });
      parts.card.append(parts.cardBg, parts.card1, parts.card2);
      g.append(parts.body, parts.name, parts.line1, parts.big, parts.flash);
      this.gCard.append(parts.card);
    }
    // A space between the labels (not drawn: SVG ignores text outside <text>), so tools that
    // read the visible text see "n1 follower term 1", not "n1followerterm 1".
    for (const t of g.querySelectorAll("text")) t.before(document.createTextNode(" "));
    g._parts = parts;
    return g;
  }

  /**
   * Brings process `g` up to `n`. A node's role, status, term and labels change rarely, so
   * they are written only when they changed (compared with what this view last wrote, not
   * read back from the DOM); its arcs and clock move every frame.
   */
  updateProc(g, n, snap, now) {
    const key = procKey(n.id);
    const parts = g._parts;
    if (key === "store") return updateStore(g, parts, snap.store, n, now, this.describing);
    if (key === "resource") return updateResource(g, parts, snap.resource, n, now, this.sticky, this.describing);
    // The simulator says what the role amounts to ("crashed" while down).
    const role = n.role_kind;
    const r = this.geo.pos.get(key).r;
    // Compared field by field with what was last written (no key string per node per frame).
    const st = (parts.st ??= {});
    const changed = st.role !== role || st.status !== n.status || st.term !== n.term || st.token !== n.token || st.name !== n.role || st.algorithm !== snap.algorithm;
    if (changed) {
      st.role = role;
      st.status = n.status;
      st.term = n.term;
      st.token = n.token;
      st.name = n.role;
      st.algorithm = snap.algorithm;
      setAttrs(g, {
        "data-role": role, "data-status": n.status, "data-term": n.term ?? undefined, "data-token": n.token ?? undefined,
        class: `proc node role-${role} status-${n.status}`,
      });
      const roleText = n.role === "Campaigning" ? "contender" : n.role === "PreCandidate" ? "pre-candidate" : ROLE_TEXT[role];
      parts.texts = {
        role: n.status === "paused" ? `${roleText}, paused` : roleText,
        value: n.token != null ? `token ${n.token}` : n.term != null ? `${snap.algorithm === "bully" ? "epoch" : "term"} ${n.term}` : "",
        badge: role === "leader" ? "★" : "",
      };
      setText(parts.role, parts.texts.role);
      setText(parts.value, parts.texts.value);
      setText(parts.badge, parts.texts.badge);
      setAttrs(parts.name, { y: role === "leader" ? 13 : 5 });
    }
    const skew = n.clock_ms - now;
    const clock = Math.abs(skew) >= 1 ? `clock ${skew > 0 ? "+" : "−"}${fmtMs(Math.abs(skew))}` : "";
    if (clock !== parts.clockText) parts.clock.textContent = parts.clockText = clock;
    // Timer arc: the time left until the next timer, as a fraction of the full wait it was
    // armed with (both from the simulator).
    const t = n.next_timer;
    let timerD = "";
    if (t && n.status !== "crashed" && t.wait_ms > 0) {
      timerD = arcPath(0, 0, r + 5, this.steps((t.deadline_ms - now) / t.wait_ms));
    }
    if (timerD !== parts.timerD) parts.timer.setAttribute("d", (parts.timerD = timerD));
    if (t?.kind !== parts.timerKind) setAttrs(parts.timer, { "data-kind": (parts.timerKind = t?.kind) });
    let leaseD = "";
    // Lease arc: the time left until the lease deadline, as a fraction of the validity the
    // lease was counted with (ttl - margin, both from the simulator's snapshot).
    if (n.lease_deadline_ms != null && role === "leader" && n.lease_validity_ms > 0) {
      leaseD = arcPath(0, 0, r + 10, this.steps((n.lease_deadline_ms - now) / n.lease_validity_ms));
    }
    if (leaseD !== parts.leaseD) parts.lease.setAttribute("d", (parts.leaseD = leaseD));
    if (changed || this.describing) {
      setText(parts.title, nodeTitle(key, n, role, now));
      // Its visible texts in order (name, badge, role, value, clock), as visibleName reads them.
      const { badge, role: roleLine, value } = parts.texts;
      setAttrs(g, { "aria-label": `${[key, badge, roleLine, value, clock].filter(Boolean).join(" ")}: faults menu` });
    }
  }

  /** Dragging across the background draws a cut line; releasing partitions by side. */
  bindDrawing() {
    const root = this.root;
    let start = null;
    const line = svg("line", { class: "draw-line" });
    const toView = (e) => {
      const m = root.getScreenCTM();
      if (!m) return { x: 0, y: 0 };
      const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
      return { x: pt.x, y: pt.y };
    };
    root.addEventListener("pointerdown", (e) => {
      // A finger on the cluster scrolls the page unless "draw partition" is on.
      if (e.pointerType === "touch" && !this.drawMode) return;
      if (e.target !== root && !e.target.classList?.contains("link")) return;
      start = toView(e);
      setAttrs(line, { x1: start.x, y1: start.y, x2: start.x, y2: start.y });
      this.gDraw.append(line);
      root.setPointerCapture?.(e.pointerId);
    });
    root.addEventListener("pointermove", (e) => {
      if (!start) return;
      const p = toView(e);
      setAttrs(line, { x2: p.x, y2: p.y });
    });
    const finish = (e) => {
      if (!start) return;
      const end = toView(e);
      const a = start;
      start = null;
      line.remove();
      if (Math.hypot(end.x - a.x, end.y - a.y) < 40 || !this.geo) return;
      const sides = [[], []];
      for (const [k, p] of this.geo.pos) {
        const cross = (end.x - a.x) * (p.y - a.y) - (end.y - a.y) * (p.x - a.x);
        sides[cross >= 0 ? 0 : 1].push(k);
      }
      if (sides[0].length && sides[1].length) this.handlers.onDrawLine?.(sides);
    };
    root.addEventListener("pointerup", finish);
    root.addEventListener("pointercancel", () => { start = null; line.remove(); });
  }
}

/** Whether the lists of `[from, to]` pairs `a` and `b` are equal. */
function samePairs(a, b) {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
  return true;
}

/**
 * A process's accessible name: its visible texts in order (so speech users can say what they
 * see), then what activating it does.
 */
function visibleName(g) {
  const texts = [...g.querySelectorAll("text")].map((t) => t.textContent.trim()).filter(Boolean);
  return `${texts.join(" ")}: faults menu`;
}

/** The cluster's text alternative: who leads now, and what is down. */
export function describe(snap) {
  const at = `At ${fmtMs(snap.time_ms)}`;
  const nodes = snap.nodes.filter((n) => procKey(n.id).startsWith("n"));
  const leaders = nodes.filter((n) => n.acting_leader);
  const word = snap.algorithm === "bully" ? "epoch" : snap.store != null ? "token" : "term";
  const lead = leaders.length === 0
    ? "no node leads"
    : leaders.map((n) => `${procKey(n.id)} leads${(n.token ?? n.term) != null ? ` (${word} ${n.token ?? n.term})` : ""}`).join(" and ");
  const down = nodes.filter((n) => n.status !== "up").map((n) => `${procKey(n.id)} ${n.status}`);
  const res = snap.resource ? `; the resource's highest token is ${snap.resource.fenced ? snap.resource.highest_token : "not checked (no fencing)"}` : "";
  return `${at}: ${lead}${leaders.length > 1 ? " (split brain)" : ""}${down.length ? `; ${down.join(", ")}` : ""}; ${nodes.length} nodes${res}.`;
}

/** Where a link's menu opens: its midpoint, as a pointer-like point. */
function linkMidpoint(line) {
  const r = line.getBoundingClientRect();
  return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
}

function updateStore(g, parts, store, n, now, describing = true) {
  if (!store) return;
  const outage = !store.available;
  setAttrs(g, { class: `proc store status-${n.status}${outage ? " outage" : ""}`, "data-holder": store.holder ?? "", "data-status": n.status });
  setText(parts.line1, outage ? "OUTAGE" : n.status === "paused" ? "paused" : store.holder != null ? `holder n${store.holder}` : "no holder");
  setText(parts.line2, store.token != null ? `token ${store.token}` : store.last_token != null ? `last token ${store.last_token}` : "");
  // The time left on the holder's lease, as a fraction of the TTL it was granted with.
  const left = store.expiry_true_ms != null && store.ttl_ms > 0 ? Math.max(0, Math.min(1, (store.expiry_true_ms - now) / store.ttl_ms)) : 0;
  setAttrs(parts.bar, { width: (76 * left).toFixed(1) });
  if (describing) setAttrs(g, { "aria-label": visibleName(g) });
}

function updateResource(g, parts, res, n, now, sticky, describing = true) {
  if (!res) return;
  if (sticky) {
    setAttrs(parts.card, { visibility: "visible", class: `sticky ${sticky.accepted ? "stale" : "rejected"}` });
    setText(parts.card1, sticky.accepted ? `⚠ accepted ${sticky.from}'s stale write` : `✕ rejected ${sticky.from}'s write`);
    setText(parts.card2, sticky.accepted ? `token ${sticky.token} after ${sticky.required}` : `presented ${sticky.presented}, required ${sticky.required}`);
  } else setAttrs(parts.card, { visibility: "hidden" });
  setAttrs(g, { class: `proc resource status-${n.status}${res.fenced ? "" : " unfenced"}`, "data-highest": res.highest_token });
  setText(parts.line1, res.fenced ? "highest token" : "no fencing");
  setText(parts.big, res.fenced ? String(res.highest_token) : "accepts all");
  const last = res.recent_writes?.at(-1);
  if (describing) setAttrs(g, { "aria-label": visibleName(g) });
  if (!last) return setAttrs(parts.flash, { opacity: 0 });
  const age = now - last.time_ms;
  const kind = !last.accepted ? "rejected" : last.stale ? "stale" : "accepted";
  const text = !last.accepted
    ? `✕ rejected: ${last.presented} < ${last.required}`
    : last.stale
      ? `⚠ stale write ${last.token} accepted`
      : `✓ write, token ${last.token}`;
  setText(parts.flashText, text);
  const hot = age < FLASH_MS;
  setAttrs(parts.flash, { class: `flash ${kind}${hot ? " hot" : ""}`, "data-testid": "resource-flash" });
  if (describing) setAttrs(g, { "aria-label": visibleName(g) });
}

function createMessage(m) {
  const el = svg("g", { "data-testid": "message", tabindex: -1, role: "button", "aria-haspopup": "dialog" });
  el._title = svg("title");
  el._dot = svg("circle", { class: "dot" });
  el.append(el._title, svg("circle", { r: 11, class: "msg-hit" }), el._dot);
  assignMessage(el, m);
  nameMessage(el);
  return el;
}

/**
 * Makes message element `el` stand for `m` (a new one, or one reused from a message gone).
 * Its name (tooltip and accessible name) is written by `nameMessage`, in the next frame that
 * describes (every DESCRIBE_EVERY_MS, as the nodes' descriptions) or when it is hovered,
 * focused or pressed: at speed most messages are on screen for a frame or two.
 */
function assignMessage(el, m) {
  const fam = messageFamily(m.kind);
  const resp = RESPONSES.test(m.kind);
  el._id = String(m.id);
  el._lit = false;
  el._m = m;
  setAttrs(el, { class: `msg ${fam}${resp ? " resp" : ""}`, "data-msg": el._id });
  setAttrs(el._dot, { r: resp ? 4.5 : 5.5 });
}

/** Writes the name of the message `el` stands for (assignMessage). */
function nameMessage(el) {
  const m = el._m;
  el._m = null;
  const name = `${m.kind}${m.value != null ? ` (${m.value})` : ""}: ${procKey(m.from)} → ${procKey(m.to)}`;
  setAttrs(el, { "aria-label": `${name}: inspect or drop` });
  setText(el._title, name);
}

function updateMessage(el, m, pos, now, lit, describing) {
  if (describing && el._m) nameMessage(el);
  const isLit = el._id === lit;
  if (isLit !== el._lit) el.classList.toggle("lit", (el._lit = isLit));
  const p = pos.get(procKey(m.from));
  const q = pos.get(procKey(m.to));
  const span = m.arrival_ms - m.send_ms;
  const f = span > 0 ? Math.max(0, Math.min(1, (now - m.send_ms) / span)) : 1;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const len = Math.hypot(dx, dy) || 1;
  const sx = p.x + (dx / len) * p.r;
  const sy = p.y + (dy / len) * p.r;
  const ex = q.x - (dx / len) * q.r;
  const ey = q.y - (dy / len) * q.r;
  const transform = `translate(${(sx + (ex - sx) * f).toFixed(1)} ${(sy + (ey - sy) * f).toFixed(1)})`;
  if (transform !== el._transform) el.setAttribute("transform", (el._transform = transform));
}

function createDrop(d) {
  const g = svg("g", { class: "drop" }, svg("path", { d: "M-5 -5L5 5M5 -5L-5 5" }));
  g._title = svg("title");
  g.append(g._title);
  assignDrop(g, d);
  nameDrop(g);
  return g;
}

/** Makes drop mark `g` stand for `d`; its tooltip is written as a message's name is (assignMessage). */
function assignDrop(g, d) {
  g._d = d;
}

function nameDrop(g) {
  const d = g._d;
  g._d = null;
  setText(g._title, `${d.kind} ${procKey(d.from)} → ${procKey(d.to)} dropped (${d.reason})`);
}

function updateDrop(g, d, pos, now, describing) {
  if (describing && g._d) nameDrop(g);
  const p = pos.get(procKey(d.from));
  const q = pos.get(procKey(d.to));
  const x = p.x + (q.x - p.x) * 0.5;
  const y = p.y + (q.y - p.y) * 0.5;
  const transform = `translate(${x.toFixed(1)} ${y.toFixed(1)})`;
  if (transform !== g._transform) g.setAttribute("transform", (g._transform = transform));
  const opacity = Math.max(0, 1 - (now - d.time_ms) / FADE_MS).toFixed(2);
  if (opacity !== g._opacity) g.setAttribute("opacity", (g._opacity = opacity));
}

function nodeTitle(key, n, role, now) {
  const lines = [`${key}: ${n.role} (${n.status})`];
  if (n.term != null) lines.push(`term/epoch ${n.term}`);
  if (n.token != null) lines.push(`fencing token ${n.token}`);
  if (n.leader != null) lines.push(`believes n${n.leader} leads`);
  if (n.next_timer) lines.push(`next timer: ${n.next_timer.kind} in ${fmtMs(n.next_timer.deadline_ms - now)}`);
  if (n.lease_deadline_ms != null) lines.push(`lease deadline in ${fmtMs(n.lease_deadline_ms - now)}`);
  lines.push(`clock reads ${fmtMs(n.clock_ms)} at true ${fmtMs(now)}`);
  return lines.join("\n");
}

/** `1.25 s` or `340 ms`. */
export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return "–";
  return Math.abs(ms) >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

function defs() {
  return svg(
    "defs",
    {},
    svg("marker", { id: "cut-arrow", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" },
      svg("path", { d: "M0 0L10 5L0 10z", class: "cut-arrow" })),
    svg("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 6, height: 6, class: "hatch-bg" }), svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" })),
  );
}
