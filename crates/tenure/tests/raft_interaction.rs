//! Golden interaction scripts for Raft (convention 8, after etcd-io/raft's
//! `interaction_test.go` and `testdata/*.txt`). Each file in `tests/testdata/raft/` is a
//! sequence of commands with the expected outputs; `REWRITE=1 cargo test` rewrites them.
//!
//! Commands:
//! - `cluster n=3 [pre-vote] [check-quorum]`: a fresh cluster of nodes 1..=n (T = 100ms,
//!   heartbeats every 30ms, seed = id).
//! - `campaign 1`: node 1 starts an election now.
//! - `tick-election 3`, `tick-heartbeat 1`, `tick-check-quorum 1`: advance time to that
//!   timer of that node and fire its due timers.
//! - `advance ms=50`: move time forward without firing timers.
//! - `deliver`: deliver every message in flight once (replies stay in flight);
//!   `stabilize`: deliver until nothing is in flight.
//! - `partition a=(1) b=(2,3)`: block every link between groups; `heal`.
//! - `propose 1 cmd=7`, `crash 2`, `restart 2`, `status`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod raft_support;

use raft_support::{Cluster, format};
use tenure::raft::RaftTimer;
use tenure::{Duration, NodeId};

fn node_arg(tc: &datadriven::TestCase) -> Result<NodeId, String> {
    let mut ids = tc.args.keys().filter_map(|k| k.parse::<u64>().ok());
    ids.next()
        .map(NodeId)
        .ok_or_else(|| format!("{}: missing node id", tc.directive))
}

fn status(c: &Cluster) -> String {
    let mut out = String::new();
    for id in c.ids() {
        match c.node(id) {
            None => out.push_str(&format!("{id}: crashed\n")),
            Some(n) => out.push_str(&format!(
                "{id}: {:?} term={} vote={} leader={} commit={} log={} next={}\n",
                n.role(),
                n.term(),
                n.voted_for().map_or("-".into(), |v| v.to_string()),
                n.leader_id().map_or("-".into(), |v| v.to_string()),
                n.commit_index(),
                format::entries(n.log()),
                n.next_timer()
                    .map_or("-".into(), |(k, at)| format!("{k:?}@{at}")),
            )),
        }
    }
    out
}

fn run(cluster: &mut Option<Cluster>, tc: &mut datadriven::TestCase) -> Result<String, String> {
    if tc.directive == "cluster" {
        let n: u64 = tc.take_arg("n").map_err(|e| e.to_string())?;
        let pre_vote = tc.args.contains_key("pre-vote");
        let check_quorum = tc.args.contains_key("check-quorum");
        *cluster = Some(Cluster::new(n, |c| {
            c.pre_vote = pre_vote;
            c.check_quorum = check_quorum;
        }));
        let c = cluster.as_mut().unwrap();
        c.take_trace();
        return Ok(status(c));
    }
    let c = cluster.as_mut().ok_or("no cluster yet")?;
    let before = c.now;
    match tc.directive.as_str() {
        "campaign" => {
            let id = node_arg(tc)?;
            if let Some(Err(e)) = c.with_node(id, |n, now| n.campaign(now)) {
                c.trace.push(format!("{id}: campaign refused: {e}"));
            }
        }
        "tick-election" | "tick-heartbeat" | "tick-check-quorum" => {
            let id = node_arg(tc)?;
            let key = match tc.directive.as_str() {
                "tick-election" => RaftTimer::Election,
                "tick-heartbeat" => RaftTimer::Heartbeat,
                _ => RaftTimer::CheckQuorum,
            };
            if !c.fire(id, key) {
                c.trace.push(format!("{id}: no {key:?} timer armed"));
            }
        }
        "advance" => {
            let ms: u64 = tc.take_arg("ms").map_err(|e| e.to_string())?;
            c.advance(Duration::from_millis(ms));
        }
        "deliver" => c.deliver_round(),
        "stabilize" => c.stabilize(),
        "partition" => {
            let groups: Vec<Vec<NodeId>> = tc
                .args
                .values()
                .map(|vs| vs.iter().map(|v| NodeId(v.parse().unwrap())).collect())
                .collect();
            c.partition(&groups);
            let mut cut: Vec<String> = c.blocked.iter().map(|(a, b)| format!("{a}->{b}")).collect();
            cut.sort();
            c.trace.push(format!("blocked {}", cut.join(" ")));
        }
        "heal" => c.heal(),
        "propose" => {
            let id = node_arg(tc)?;
            let cmd: u64 = tc.take_arg("cmd").map_err(|e| e.to_string())?;
            match c.with_node(id, |n, now| n.propose(now, cmd)) {
                Some(Ok(index)) => c
                    .trace
                    .push(format!("{id}: proposed c{cmd} at index {index}")),
                Some(Err(e)) => c.trace.push(format!("{id}: propose refused: {e}")),
                None => c.trace.push(format!("{id}: crashed")),
            }
        }
        "crash" => {
            let id = node_arg(tc)?;
            c.crash(id);
        }
        "restart" => {
            let id = node_arg(tc)?;
            c.restart(id);
        }
        "status" => return Ok(status(c)),
        other => return Err(format!("unknown command {other}")),
    }
    let mut out = String::new();
    if c.now != before {
        out.push_str(&format!("now {}\n", c.now));
    }
    for line in c.take_trace() {
        out.push_str(&line);
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("ok\n");
    }
    Ok(out)
}

#[test]
fn raft_interaction_scripts() {
    datadriven::walk("tests/testdata/raft", |f| {
        let mut cluster = None;
        f.run(|tc| run(&mut cluster, tc));
    });
}
