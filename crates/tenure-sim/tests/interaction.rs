//! Golden interaction scripts over the simulator's world, one vocabulary for every
//! algorithm (after etcd-io/raft's `interaction_test.go` and `testdata/*.txt`). Each file
//! in `tests/testdata/interaction/` is a sequence of commands with the expected output;
//! `REWRITE=1 cargo test -p tenure-sim --test interaction` rewrites them (review the diff).
//!
//! The world runs in manual-delivery mode: a message that leaves its sender waits until the
//! script delivers or drops it; timers, clocks, faults and the checker run as in a free run.
//!
//! Commands (`<proc>` is a node number, `store` or `resource`):
//! - `world algorithm=raft nodes=3 seed=1`, with an optional JSON `config` object as input:
//!   a fresh world; prints `status`.
//! - `advance ms=150`: move true time forward, firing every timer due.
//! - `deliver [from=<proc>] [to=<proc>]`: deliver each held message (of that sender, to that
//!   receiver) once; what the receivers send stays held. `stabilize`: deliver until nothing
//!   is held (at most 100 rounds). `drop [from=] [to=]`: drop held messages.
//! - `crash 1`, `restart 1`, `isolate 1`, `partition a=(1,2) b=(3,store)`, `heal`, and
//!   `fault` with any fault as JSON input (`{"type": "clock-drift", "target": 1, ...}`).
//! - `status`: every process's role, term or token, leader belief and next timer.
//!
//! Output lines: `send n1->n2 RequestVote 1` (kind and the term, epoch or token it carries),
//! `recv n1->n2 RequestVote`, `drop n1->n2 RequestVote partition`, `timeout n1`,
//! `n1 became-leader 1`, `fault {...}`, `write n1 token=2 accepted`, `violation kind: ...`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use tenure::{Duration, Instant, NodeId};
use tenure_sim::{Fault, Proc, Scenario, TraceEvent, TraceKind, World};

struct Harness {
    world: World,
    cursor: u64,
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
            let names: Vec<String> = leaders.iter().map(ToString::to_string).collect();
            format!("split-brain-started {}", names.join(","))
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
        let text = format!(
            r#"{{"version": 1, "algorithm": "{}", "nodes": {}, "seed": {}, "duration_ms": 3600000, "config": {}}}"#,
            tc.take_arg::<String>("algorithm")
                .map_err(|e| e.to_string())?,
            tc.take_arg::<u64>("nodes").map_err(|e| e.to_string())?,
            tc.take_arg::<u64>("seed").map_err(|e| e.to_string())?,
            if tc.input.trim().is_empty() {
                "{}"
            } else {
                tc.input.trim()
            },
        );
        let s = Scenario::from_json(&text).map_err(|e| e.to_string())?;
        let mut world = World::new(&s).map_err(|e| e.to_string())?;
        world.set_manual_delivery(true);
        let (_, cursor) = world.events_since(0);
        let out = status(&world);
        *h = Some(Harness { world, cursor });
        return Ok(out);
    }
    let h = h.as_mut().ok_or("no world yet")?;
    let w = &mut h.world;
    let before = w.now();
    let inject = |w: &mut World, f: Fault| w.inject(f).map_err(|e| e.to_string());
    match tc.directive.as_str() {
        "advance" => {
            let by: u64 = tc.take_arg("ms").map_err(|e| e.to_string())?;
            let t = w.now().saturating_add(Duration::from_millis(by));
            w.run_until(t);
        }
        "deliver" | "drop" | "stabilize" => {
            let (from, to) = pick(tc)?;
            let ok = |f: Proc, t: Proc| from.is_none_or(|x| x == f) && to.is_none_or(|x| x == t);
            match tc.directive.as_str() {
                "deliver" => {
                    w.deliver_held(ok);
                }
                "drop" => {
                    w.drop_held(ok);
                }
                _ => {
                    let mut rounds = 0;
                    while w.deliver_held(ok) > 0 {
                        rounds += 1;
                        if rounds == 100 {
                            return Err("stabilize: still sending after 100 rounds".into());
                        }
                    }
                }
            }
        }
        "crash" => inject(
            w,
            Fault::Crash {
                node: node_arg(tc)?,
            },
        )?,
        "restart" => inject(
            w,
            Fault::Restart {
                node: node_arg(tc)?,
            },
        )?,
        "isolate" => inject(
            w,
            Fault::Isolate {
                nodes: vec![Proc::Node(node_arg(tc)?)],
            },
        )?,
        "heal" => inject(w, Fault::Heal {})?,
        "partition" => {
            // Groups in name order (`a=`, `b=`, ...): the arguments come unordered.
            let mut named: Vec<_> = tc.args.iter().collect();
            named.sort_by(|x, y| x.0.cmp(y.0));
            let groups = named
                .into_iter()
                .map(|(_, vs)| vs.iter().map(|v| proc_arg(v)).collect())
                .collect::<Result<Vec<Vec<Proc>>, String>>()?;
            inject(w, Fault::Partition { groups })?;
        }
        "fault" => {
            let f: Fault = serde_json::from_str(tc.input.trim()).map_err(|e| e.to_string())?;
            inject(w, f)?;
        }
        "status" => return Ok(status(w)),
        other => return Err(format!("unknown command {other}")),
    }
    let mut out = String::new();
    if w.now() != before {
        out.push_str(&format!("t={}\n", ms(w.now().as_micros())));
    }
    let (events, cursor) = w.events_since(h.cursor);
    h.cursor = cursor;
    for e in &events {
        out.push_str(&line(e));
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("ok\n");
    }
    Ok(out)
}

#[test]
fn interaction_scripts() {
    datadriven::walk("tests/testdata/interaction", |f| {
        let mut h = None;
        f.run(|tc| run(&mut h, tc));
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
