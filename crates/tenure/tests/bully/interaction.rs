//! Golden interaction scripts for Bully (convention 8), in `tests/testdata/bully/`.
//! Run with `REWRITE=1` to regenerate the expected output after an intended change.
//!
//! Commands, one per test case:
//! - `cluster 1 2 3 [seed=N]`: fresh nodes with those ids (default timings, no latency);
//! - `tick N`: fire node N's next timer, moving time to its deadline;
//! - `start N`: node N's `start_election`;
//! - `deliver`: deliver every message now in flight, once; `stabilize`: until none is left;
//! - `drop from=A to=B`: lose the in-flight messages from A to B;
//! - `crash N`, `restart N` (from the last Persist);
//! - `partition` with groups in the body (`1,2|3`), `heal`;
//! - `status`: each node's role, coordinator@epoch, highest epoch and armed timer.
//!
//! Sent messages are listed as `from->to`, deliveries as `to <- from` with the receiver's
//! reaction indented below.

use super::cluster::Cluster;
use datadriven::TestCase;
use tenure::bully::BullyConfig;

fn ids_of(tc: &TestCase) -> Vec<u64> {
    let mut ids: Vec<u64> = tc.args.keys().filter_map(|k| k.parse().ok()).collect();
    ids.sort_unstable();
    ids
}

fn one_id(tc: &TestCase) -> u64 {
    match ids_of(tc).as_slice() {
        [id] => *id,
        other => panic!("{}: expected one node id, got {other:?}", tc.directive),
    }
}

fn arg(tc: &TestCase, name: &str) -> Option<u64> {
    tc.args.get(name)?.first()?.parse().ok()
}

fn run(cluster: &mut Option<Cluster>, tc: &TestCase) -> String {
    if tc.directive == "cluster" {
        let seed = arg(tc, "seed").unwrap_or(0);
        *cluster = Some(Cluster::new(&ids_of(tc), &BullyConfig::default(), seed));
        return "ok\n".to_string();
    }
    let c = cluster.as_mut().expect("`cluster` must come first");
    match tc.directive.as_str() {
        "tick" => c.tick(one_id(tc)),
        "start" => c.start_election(one_id(tc)),
        "deliver" => {
            c.deliver_all();
        }
        "stabilize" => c.stabilize(100),
        "drop" => c.drop_link(arg(tc, "from").expect("from="), arg(tc, "to").expect("to=")),
        "crash" => c.crash(one_id(tc)),
        "restart" => c.restart(one_id(tc)),
        "partition" => {
            let groups: Vec<Vec<u64>> = tc
                .input
                .trim()
                .split('|')
                .map(|g| {
                    g.split(',')
                        .map(|x| x.trim().parse().expect("id"))
                        .collect()
                })
                .collect();
            c.partition(&groups);
            return format!("ok: {}\n", tc.input.trim());
        }
        "heal" => c.heal(),
        "status" => return c.status(),
        other => panic!("unknown command {other}"),
    }
    let out = c.take_transcript();
    if out.is_empty() {
        "ok\n".to_string()
    } else {
        out
    }
}

#[test]
fn bully_interaction_scripts() {
    datadriven::walk("tests/testdata/bully", |f| {
        let mut cluster = None;
        f.run(|tc| -> String { run(&mut cluster, tc) });
    });
}
