//! Golden interaction scripts over the simulator's world, one vocabulary for every
//! algorithm (after etcd-io/raft's `interaction_test.go` and `testdata/*.txt`). Each file
//! in `tests/testdata/interaction/` is a sequence of commands with the expected output;
//! `REWRITE=1 cargo test -p tenure-sim --test interaction` rewrites them (review the diff).
//!
//! The world runs in manual-delivery mode: a message that leaves its sender waits until the
//! script delivers or drops it; timers, clocks, faults and the checker run as in a free run.
//!
//! Commands (`<proc>` is a node number, `store` or `resource`; docs/testing.md explains how
//! to write a script):
//! - `world algorithm=raft nodes=3 seed=1`, with an optional JSON `config` object as input
//!   (the scenario's `config`, read strictly): a fresh world; prints `status`.
//! - `advance ms=150`: move true time forward, firing every timer due.
//! - `run ms=200`: let the world run freely for a while (the network model delivers every
//!   message, with the scenario's latency), then hold messages again.
//! - `tick 3`: move true time to node 3's next timer and fire it (and every timer due before).
//! - `campaign 3`: node 3 starts an election now, as its application may (Raft's
//!   `campaign`, Bully's `start_election`, a lease candidate's `campaign`).
//! - `deliver [from=<proc>] [to=<proc>]`: deliver each held message (of that sender, to that
//!   receiver) once; what the receivers send stays held. `stabilize`: deliver until nothing
//!   is held (at most 100 rounds). `drop [from=] [to=]`: drop held messages.
//! - `crash 1`, `restart 1`, `isolate 1`, `partition a=(1,2) b=(3,store)`, `heal`,
//!   `propose 1 cmd=7` (Raft), and `fault` with any fault as JSON input
//!   (`{"type": "clock-drift", "target": 1, ...}`).
//! - `pause 1 ms=2000`: node 1 does nothing for a while (a GC pause); what reaches it waits.
//! - Lease worlds only (`tenure_sim::lease::LeaseWorld`): `check 1` (node 1's
//!   `assert_leadership` now: `n1 leads with token 1` or why not), `write 1 token=1` (a
//!   write presenting that token, judged by the resource now), `refuse-renewals on|off`
//!   (the store refuses every renewal).
//! - `status`: every process's role, term or token, leader belief, Raft commit index and
//!   log, and next timer.
//!
//! Output lines: `send n1->n2 RequestVote 1 last=0@0` (kind, the term, epoch or token it
//! carries, and what else the message says), `recv n1->n2 RequestVote`,
//! `drop n1->n2 RequestVote partition`, `timeout n1`, `n1 became-leader 1`, `fault {...}`,
//! `write n1 token=2 accepted`, `violation kind: ...`, `split-brain-started n1,n2 at=4005ms`
//! (a window is reported once true time leaves the instant it opened at, so often under a
//! later command: `at=` says when it opened; one that closes within its instant is none). A command with nothing to show
//! prints `ok`; a refused one prints `error: ...`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use tenure::bully::BullyMessage;
use tenure::raft::{Entry, EntryData, Message as RaftMessage};
use tenure::{Duration, FencingToken, Instant, NodeId};
use tenure_sim::lease::LeaseWorld;
use tenure_sim::message::Payload;
use tenure_sim::units::Ms;
use tenure_sim::{Fault, Proc, Scenario, TraceEvent, TraceKind, World};

struct Harness {
    world: World,
    cursor: u64,
}

impl Harness {
    /// Appends the events recorded since the last flush, a send with what its message says
    /// (looked up among the held messages, or on the wire during `run`; a message the
    /// network dropped at once shows its kind only).
    fn flush(&mut self, out: &mut String) {
        let held: BTreeMap<u64, Payload> = self
            .world
            .held()
            .into_iter()
            .map(|m| (m.id, m.payload))
            .collect();
        let (events, cursor) = self.world.events_since(self.cursor);
        self.cursor = cursor;
        for e in &events {
            out.push_str(&line(e));
            let payload = |id: &u64| {
                held.get(id)
                    .cloned()
                    .or_else(|| self.world.message(*id).map(|m| m.payload))
            };
            if let TraceKind::Send { id, .. } = &e.kind
                && let Some(d) = payload(id).as_ref().and_then(detail)
            {
                out.push(' ');
                out.push_str(&d);
            }
            out.push('\n');
        }
    }
}

fn entries(es: &[Entry]) -> String {
    let one = |e: &Entry| match e.data {
        EntryData::Noop => format!("{}/noop", e.term),
        EntryData::Command(c) => format!("{}/c{c}", e.term),
    };
    format!("[{}]", es.iter().map(one).collect::<Vec<_>>().join(" "))
}

/// What a message says beyond its kind and the term, epoch or token the trace shows.
fn detail(p: &Payload) -> Option<String> {
    let yes_no = |ok: bool, yes: &str, no: &str| if ok { yes } else { no }.to_string();
    Some(match p {
        Payload::Raft(RaftMessage::RequestVote {
            last_log_index,
            last_log_term,
            ..
        }) => format!("last={last_log_index}@{last_log_term}"),
        Payload::Raft(RaftMessage::RequestVoteResponse { granted, .. }) => {
            yes_no(*granted, "granted", "rejected")
        }
        Payload::Raft(RaftMessage::AppendEntries {
            prev_log_index,
            prev_log_term,
            entries: es,
            leader_commit,
            ..
        }) if es.is_empty() => {
            format!("prev={prev_log_index}@{prev_log_term} commit={leader_commit}")
        }
        Payload::Raft(RaftMessage::AppendEntries {
            prev_log_index,
            prev_log_term,
            entries: es,
            leader_commit,
            ..
        }) => format!(
            "prev={prev_log_index}@{prev_log_term} entries={} commit={leader_commit}",
            entries(es)
        ),
        Payload::Raft(RaftMessage::AppendEntriesResponse {
            success,
            match_index,
            ..
        }) => format!("{} match={match_index}", yes_no(*success, "ok", "rejected")),
        Payload::Bully(BullyMessage::Coordinator { coordinator, .. }) => {
            format!("coordinator={coordinator}")
        }
        Payload::Established { accepted, .. } | Payload::WriteResult { accepted, .. } => {
            yes_no(*accepted, "accepted", "rejected")
        }
        _ => return None,
    })
}

fn ms(us: u64) -> String {
    let (whole, frac) = (us / 1_000, us % 1_000);
    if frac == 0 {
        format!("{whole}ms")
    } else {
        format!("{whole}.{frac:03}ms")
    }
}

fn proc_arg(v: &str) -> Result<Proc, String> {
    match v {
        "store" => Ok(Proc::Store),
        "resource" => Ok(Proc::Resource),
        n => n
            .parse::<u64>()
            .map(|i| Proc::Node(NodeId(i)))
            .map_err(|_| format!("not a process: {n}")),
    }
}

fn node_arg(tc: &datadriven::TestCase) -> Result<NodeId, String> {
    tc.args
        .keys()
        .find_map(|k| k.parse::<u64>().ok())
        .map(NodeId)
        .ok_or_else(|| format!("{}: missing node id", tc.directive))
}

fn line(e: &TraceEvent) -> String {
    let v = |v: Option<u64>| v.map_or(String::new(), |v| format!(" {v}"));
    match &e.kind {
        TraceKind::Send {
            from,
            to,
            msg,
            value,
            ..
        } => format!("send {from}->{to} {msg}{}", v(*value)),
        TraceKind::Deliver { from, to, msg, .. } => format!("recv {from}->{to} {msg}"),
        TraceKind::Drop {
            from,
            to,
            msg,
            reason,
            ..
        } => format!(
            "drop {from}->{to} {msg} {}",
            serde_json::to_value(reason)
                .unwrap()
                .as_str()
                .unwrap_or("?")
        ),
        TraceKind::Timeout { proc } => format!("timeout {proc}"),
        TraceKind::Node { proc, change } => {
            // The event's own JSON form: `what`, then its value, duration and reason.
            let j = serde_json::to_value(change).unwrap();
            let what = j["what"].as_str().unwrap_or("?");
            let value = j["value"].as_u64();
            let pause = j["duration_ms"]
                .as_f64()
                .map_or(String::new(), |d| format!(" for {d}ms"));
            let reason = j["reason"]
                .as_str()
                .map_or(String::new(), |r| format!(" ({r})"));
            format!("{proc} {what}{}{pause}{reason}", v(value))
        }
        TraceKind::SplitBrainStarted { leaders } => {
            // Reported once true time moves on with the window open, so often under a later
            // command's `t=`: the line says when it opened.
            let names: Vec<String> = leaders.iter().map(ToString::to_string).collect();
            format!(
                "split-brain-started {} at={}",
                names.join(","),
                ms(e.time_us)
            )
        }
        TraceKind::SplitBrainEnded { duration_us } => {
            format!("split-brain-ended after {}", ms(*duration_us))
        }
        TraceKind::Write(w) => format!(
            "write {} token={} {}{}",
            w.from,
            w.token,
            if w.accepted { "accepted" } else { "rejected" },
            if w.stale { " stale" } else { "" }
        ),
        TraceKind::Fault { fault } => format!("fault {}", serde_json::to_string(fault).unwrap()),
        TraceKind::Violation(x) => format!(
            "violation {}{}: {}",
            x.kind.name(),
            if x.promised { "" } else { " (not promised)" },
            x.detail
        ),
    }
}

fn status(w: &World) -> String {
    let mut out = String::new();
    for n in w.snapshot().nodes {
        let mut s = format!("{}: {:?} {:?}", n.id, n.role, n.status).to_lowercase();
        if let Some(t) = n.term {
            s.push_str(&format!(" term={t}"));
        }
        if let Some(t) = n.token {
            s.push_str(&format!(" token={t}"));
        }
        if let Some(l) = n.leader {
            s.push_str(&format!(" leader=n{l}"));
        }
        if let Some(c) = n.commit {
            s.push_str(&format!(" commit={c}"));
        }
        if let Some(log) = &n.log {
            let one = |e: &tenure_sim::snapshot::LogEntryView| match e.command {
                None => format!("{}/noop", e.term),
                Some(c) => format!("{}/c{c}", e.term),
            };
            let all: Vec<String> = log.iter().map(one).collect();
            s.push_str(&format!(" log=[{}]", all.join(" ")));
        }
        if let Some(t) = n.next_timer {
            s.push_str(&format!(" next={}@{}", t.kind, ms(t.deadline_us)));
        }
        out.push_str(&s);
        out.push('\n');
    }
    out
}

fn pick(tc: &mut datadriven::TestCase) -> Result<(Option<Proc>, Option<Proc>), String> {
    let mut one = |k: &str| -> Result<Option<Proc>, String> {
        match tc.args.remove(k) {
            Some(v) => proc_arg(v.first().map_or("", String::as_str)).map(Some),
            None => Ok(None),
        }
    };
    Ok((one("from")?, one("to")?))
}

fn run(h: &mut Option<Harness>, tc: &mut datadriven::TestCase) -> Result<String, String> {
    if tc.directive == "world" {
        // The scenario is data the harness builds, not text the script wrote: its errors name
        // the key (`algorithm: "paxos" is not one of ...`) with no line or column. The config
        // input is the script's own JSON text, so a syntax error in it keeps its position.
        let config = match tc.input.trim() {
            "" => serde_json::json!({}),
            text => tenure_sim::serde_words::from_text::<serde_json::Value>(text)
                .map_err(|e| format!("config: {}", e.words()))?,
        };
        let scenario = serde_json::json!({
            "version": 1,
            "algorithm": tc.take_arg::<String>("algorithm").map_err(|e| e.to_string())?,
            "nodes": tc.take_arg::<u64>("nodes").map_err(|e| e.to_string())?,
            "seed": tc.take_arg::<u64>("seed").map_err(|e| e.to_string())?,
            "duration_ms": 3_600_000,
            "config": config,
        });
        let s = Scenario::from_value(scenario).map_err(|e| e.to_string())?;
        let mut world = World::new(&s).map_err(|e| e.to_string())?;
        world.set_manual_delivery(true);
        let (_, cursor) = world.events_since(0);
        let out = status(&world);
        *h = Some(Harness { world, cursor });
        return Ok(out);
    }
    let h = h.as_mut().ok_or("no world yet")?;
    let before = h.world.now();
    let mut out = String::new();
    let inject = |w: &mut World, f: Fault| w.inject(f).map_err(|e| e.to_string());
    match tc.directive.as_str() {
        "advance" => {
            let by: u64 = tc.take_arg("ms").map_err(|e| e.to_string())?;
            let t = h.world.now().saturating_add(Duration::from_millis(by));
            h.world.run_until(t);
        }
        "run" => {
            // Free delivery for a while: the network model carries every message, then the
            // script holds them again (what is still in flight at the end stays held).
            let by: u64 = tc.take_arg("ms").map_err(|e| e.to_string())?;
            let t = h.world.now().saturating_add(Duration::from_millis(by));
            h.world.set_manual_delivery(false);
            // Event by event, so each send is shown while its message is on the wire.
            while h.world.next_event_at().is_some_and(|at| at <= t) {
                h.world.step();
                h.flush(&mut out);
            }
            h.world.run_until(t);
            h.world.set_manual_delivery(true);
        }
        "tick" => {
            let id = node_arg(tc)?;
            let view = h.world.snapshot().nodes;
            let timer = view
                .iter()
                .find(|n| n.id == Proc::Node(id))
                .ok_or_else(|| format!("tick: no node {id}"))?
                .next_timer
                .as_ref()
                .map(|t| t.deadline_us)
                .ok_or_else(|| format!("tick: {id} has no timer armed"))?;
            h.world.run_until(Instant::from_micros(timer));
        }
        "deliver" | "drop" | "stabilize" => {
            let (from, to) = pick(tc)?;
            let ok = |f: Proc, t: Proc| from.is_none_or(|x| x == f) && to.is_none_or(|x| x == t);
            match tc.directive.as_str() {
                "deliver" => {
                    h.world.deliver_held(ok);
                }
                "drop" => {
                    h.world.drop_held(ok);
                }
                _ => {
                    // One round at a time, so each send is shown while its message is held.
                    let mut rounds = 0;
                    while h.world.deliver_held(ok) > 0 {
                        h.flush(&mut out);
                        rounds += 1;
                        if rounds == 100 {
                            return Err("stabilize: still sending after 100 rounds".into());
                        }
                    }
                }
            }
        }
        "crash" | "restart" | "isolate" | "propose" => {
            let node = node_arg(tc)?;
            let f = match tc.directive.as_str() {
                "crash" => Fault::Crash { node },
                "restart" => Fault::Restart { node },
                "isolate" => Fault::Isolate {
                    nodes: vec![Proc::Node(node)],
                },
                _ => Fault::Propose {
                    node,
                    command: tc.take_arg("cmd").map_err(|e| e.to_string())?,
                },
            };
            inject(&mut h.world, f)?;
        }
        "campaign" => {
            let id = node_arg(tc)?;
            h.world.campaign(id).map_err(|e| e.to_string())?;
        }
        "pause" => {
            let node = node_arg(tc)?;
            let ms: u64 = tc.take_arg("ms").map_err(|e| e.to_string())?;
            let duration_ms = Ms::from_millis(ms);
            let target = Proc::Node(node);
            inject(
                &mut h.world,
                Fault::Pause {
                    target,
                    duration_ms,
                },
            )?;
        }
        "check" => {
            let id = node_arg(tc)?;
            let r = h.world.assert_leadership(id);
            let r = r.ok_or("check: not a running lease candidate")?;
            out.push_str(&match r {
                Ok(token) => format!("n{} leads with token {}\n", id.0, token.0),
                Err(why) => format!("n{} refused: {why}\n", id.0),
            });
        }
        "write" => {
            let id = node_arg(tc)?;
            let token = FencingToken(tc.take_arg("token").map_err(|e| e.to_string())?);
            let r = h.world.write_with(id, token);
            r.ok_or("write: not a running lease candidate")?.ok();
        }
        "refuse-renewals" => {
            let on = !tc.args.contains_key("off");
            let was = h.world.refuse_renewals(on);
            was.ok_or("refuse-renewals: not a lease world")?;
        }
        "heal" => inject(&mut h.world, Fault::Heal {})?,
        "partition" => {
            // Groups in name order (`a=`, `b=`, ...): the arguments come unordered.
            let mut named: Vec<_> = tc.args.iter().collect();
            named.sort_by(|x, y| x.0.cmp(y.0));
            let groups = named
                .into_iter()
                .map(|(_, vs)| vs.iter().map(|v| proc_arg(v)).collect())
                .collect::<Result<Vec<Vec<Proc>>, String>>()?;
            inject(&mut h.world, Fault::Partition { groups })?;
        }
        "fault" => {
            let f: Fault = serde_json::from_str(tc.input.trim()).map_err(|e| e.to_string())?;
            inject(&mut h.world, f)?;
        }
        "status" => return Ok(status(&h.world)),
        other => return Err(format!("unknown command {other}")),
    }
    if h.world.now() != before {
        out.insert_str(0, &format!("t={}\n", ms(h.world.now().as_micros())));
    }
    h.flush(&mut out);
    if out.is_empty() {
        out.push_str("ok\n");
    }
    Ok(out)
}

#[test]
fn interaction_scripts() {
    datadriven::walk("tests/testdata/interaction", |f| {
        let mut h = None;
        f.run(|tc| run(&mut h, tc).unwrap_or_else(|e| format!("error: {e}\n")));
    });
}

#[test]
fn manual_delivery_holds_messages_until_delivered() {
    let s = Scenario::new(tenure_sim::Algorithm::Raft, 3, 1, 10_000);
    let mut w = World::new(&s).unwrap();
    w.set_manual_delivery(true);
    w.run_until(Instant::from_millis(1_000));
    // Someone campaigned, but no vote arrived: nobody leads, the requests wait.
    assert!(w.leaders().is_empty());
    let held = w.held();
    assert!(!held.is_empty());
    assert!(held.iter().all(|m| m.kind.contains("Vote")), "{held:?}");
    assert_eq!(w.metrics().messages_delivered, 0);
    w.drop_held(|_, _| true);
    assert!(w.held().is_empty());
    // Turned off, the world runs freely again and elects a leader.
    w.set_manual_delivery(false);
    w.run_until(Instant::from_millis(3_000));
    assert_eq!(w.leaders().len(), 1);
}
