//! A minimal driver for lease scenarios: true time in us, one clock per process (offset,
//! rate, jumps), a queue of in-flight requests and responses with delivery times, pauses,
//! cut links, and a `FencedResource`. The full simulator lives in `tenure-sim`; this is only
//! what the scenario tests need.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use tenure::lease::{
    CandidateEvent, CandidateOutput, LeaseCandidate, LeaseConfig, LeaseKey, LeaseStore,
    RejectReason, StoreOp, StoreRequest, StoreResponse, StoreResult,
};
use tenure::{Duration, FencedResource, FencingToken, Instant, NodeId, StaleToken};

pub const MS: u64 = 1_000;
pub const S: u64 = 1_000_000;

/// A process clock: `offset + t * (1 + rate_ppm / 1e6)`, in us, never below 0.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClockModel {
    pub offset_us: i64,
    pub rate_ppm: i64,
}

impl ClockModel {
    pub fn local(&self, t: u64) -> Instant {
        let t = i128::from(t);
        let v = t + t * i128::from(self.rate_ppm) / 1_000_000 + i128::from(self.offset_us);
        Instant::from_micros(v.clamp(0, i128::from(u64::MAX)) as u64)
    }
    /// The earliest true time `>= after` at which this clock reads at least `local`.
    pub fn true_at(&self, local: Instant, after: u64) -> u64 {
        if self.local(after) >= local {
            return after;
        }
        let (mut lo, mut hi) = (after, after.saturating_add(1));
        while self.local(hi) < local {
            lo = hi;
            hi = after.saturating_add((hi - after).saturating_mul(2));
            if hi == u64::MAX {
                return u64::MAX;
            }
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.local(mid) >= local {
                hi = mid
            } else {
                lo = mid
            }
        }
        hi
    }
}

#[derive(Clone, Debug)]
pub enum Msg {
    Req { from: usize, req: StoreRequest },
    Resp { to: usize, resp: StoreResponse },
}

#[derive(Clone, Debug)]
pub struct InFlight {
    pub at: u64,
    pub seq: u64,
    pub msg: Msg,
}

pub struct Node {
    pub cand: LeaseCandidate,
    pub clock: ClockModel,
    pub paused_until: u64,
    /// Both directions to the store are cut (messages dropped at delivery).
    pub cut: bool,
    pub req_delay: u64,
    pub resp_delay: u64,
    /// (true time, event)
    pub events: Vec<(u64, CandidateEvent)>,
}

impl Node {
    pub fn elected_tokens(&self) -> Vec<u64> {
        self.events
            .iter()
            .filter_map(|(_, e)| match e {
                CandidateEvent::Elected { token, .. } => Some(token.0),
                _ => None,
            })
            .collect()
    }
}

pub struct World {
    pub t: u64,
    pub store: LeaseStore,
    pub store_clock: ClockModel,
    pub nodes: Vec<Node>,
    pub net: Vec<InFlight>,
    seq: u64,
    pub resource: FencedResource<String>,
    /// The store answers every `Renew` with `Rejected` (S04).
    pub reject_renewals: bool,
    pub log: Vec<String>,
    /// Every `Elected` event in emission order: (true time, node, token).
    pub elections: Vec<(u64, usize, FencingToken)>,
}

pub fn config(holder: u64) -> LeaseConfig {
    LeaseConfig {
        holder: NodeId(holder),
        seed: holder,
        ..LeaseConfig::default()
    }
}

impl World {
    pub fn new() -> Self {
        World {
            t: 0,
            store: LeaseStore::new(),
            store_clock: ClockModel::default(),
            nodes: Vec::new(),
            net: Vec::new(),
            seq: 0,
            resource: FencedResource::new(),
            reject_renewals: false,
            log: Vec::new(),
            elections: Vec::new(),
        }
    }

    /// Adds a node with `config` and a 1 ms one-way latency each way.
    pub fn add(&mut self, config: LeaseConfig) -> usize {
        self.nodes.push(Node {
            cand: LeaseCandidate::new(config).unwrap(),
            clock: ClockModel::default(),
            paused_until: 0,
            cut: false,
            req_delay: MS,
            resp_delay: MS,
            events: Vec::new(),
        });
        self.nodes.len() - 1
    }

    pub fn key(&self) -> LeaseKey {
        LeaseConfig::default().key
    }

    pub fn local(&self, i: usize) -> Instant {
        self.nodes[i].clock.local(self.t)
    }

    pub fn store_now(&self) -> Instant {
        self.store_clock.local(self.t)
    }

    fn push(&mut self, at: u64, msg: Msg) {
        self.seq += 1;
        self.net.push(InFlight {
            at,
            seq: self.seq,
            msg,
        });
    }

    pub fn drain(&mut self, i: usize) {
        while let Some(out) = self.nodes[i].cand.poll_output() {
            match out {
                CandidateOutput::Send(req) => {
                    let at = self.t + self.nodes[i].req_delay;
                    self.log
                        .push(format!("t={}ms n{} send {:?}", self.t / MS, i, req.op));
                    self.push(at, Msg::Req { from: i, req });
                }
                CandidateOutput::Event(e) => {
                    self.log.push(format!("t={}ms n{} {:?}", self.t / MS, i, e));
                    if let CandidateEvent::Elected { token, .. } = e {
                        self.elections.push((self.t, i, token));
                    }
                    self.nodes[i].events.push((self.t, e));
                }
            }
        }
    }

    pub fn campaign(&mut self, i: usize) {
        let now = self.local(i);
        self.nodes[i].cand.campaign(now);
        self.drain(i);
    }

    pub fn release(&mut self, i: usize) {
        let now = self.local(i);
        self.nodes[i].cand.release(now);
        self.drain(i);
    }

    /// Writes `value` presenting `token`, as a driver that skipped (or passed) its local
    /// check does; a stale token is reported to the candidate.
    pub fn write_with(
        &mut self,
        i: usize,
        token: FencingToken,
        value: &str,
    ) -> Result<FencingToken, StaleToken> {
        let r = self.resource.write(token, value.to_string());
        if let Err(stale) = r {
            let now = self.local(i);
            self.nodes[i].cand.report_fenced(now, stale);
            self.drain(i);
        }
        r
    }

    /// `assert_leadership` at the node's current local time; outputs are drained.
    pub fn assert_leadership(
        &mut self,
        i: usize,
    ) -> Result<FencingToken, tenure::lease::NotLeader> {
        let now = self.local(i);
        let r = self.nodes[i].cand.assert_leadership(now);
        self.drain(i);
        r
    }

    /// The full leader path: `assert_leadership`, then a fenced write.
    pub fn write_checked(
        &mut self,
        i: usize,
        value: &str,
    ) -> Option<Result<FencingToken, StaleToken>> {
        let now = self.local(i);
        let checked = self.nodes[i].cand.assert_leadership(now);
        self.drain(i);
        let token = checked.ok()?;
        Some(self.write_with(i, token, value))
    }

    fn next_event(&self) -> Option<(u64, Option<usize>, Option<usize>)> {
        // (time, index into net, node whose timer fires)
        let mut best: Option<(u64, u64, Option<usize>, Option<usize>)> = None;
        for (k, m) in self.net.iter().enumerate() {
            let at = match &m.msg {
                Msg::Resp { to, .. } => m.at.max(self.nodes[*to].paused_until),
                Msg::Req { .. } => m.at,
            };
            let cand = (at, m.seq, Some(k), None);
            if best.is_none_or(|b| (cand.0, cand.1) < (b.0, b.1)) {
                best = Some(cand);
            }
        }
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(deadline) = n.cand.poll_timeout() {
                let at = n.clock.true_at(deadline, self.t).max(n.paused_until);
                let cand = (at, u64::MAX, None, Some(i));
                if best.is_none_or(|b| (cand.0, cand.1) < (b.0, b.1)) {
                    best = Some(cand);
                }
            }
        }
        best.map(|(at, _, k, i)| (at, k, i))
    }

    /// Processes every delivery and timer up to true time `until`, then sets `t = until`.
    pub fn run_until(&mut self, until: u64) {
        while let Some((at, k, i)) = self.next_event() {
            if at > until {
                break;
            }
            self.t = self.t.max(at);
            if let Some(k) = k {
                let m = self.net.remove(k);
                self.deliver(m.msg);
            } else if let Some(i) = i {
                let now = self.local(i);
                self.nodes[i].cand.handle_timeout(now);
                self.drain(i);
            }
        }
        self.t = self.t.max(until);
    }

    pub fn deliver(&mut self, msg: Msg) {
        match msg {
            Msg::Req { from, req } => {
                if self.nodes[from].cut {
                    return;
                }
                let resp = if self.reject_renewals && matches!(req.op, StoreOp::Renew { .. }) {
                    Some(StoreResponse {
                        id: req.id,
                        key: req.key.clone(),
                        result: StoreResult::Rejected {
                            reason: RejectReason::NotHolder,
                        },
                    })
                } else {
                    self.store.handle(self.store_now(), &req)
                };
                if let Some(resp) = resp {
                    self.log.push(format!(
                        "t={}ms store -> n{from} {:?}",
                        self.t / MS,
                        resp.result
                    ));
                    let at = self.t + self.nodes[from].resp_delay;
                    self.push(at, Msg::Resp { to: from, resp });
                }
            }
            Msg::Resp { to, resp } => {
                if self.nodes[to].cut {
                    return;
                }
                let now = self.local(to);
                self.nodes[to].cand.handle_response(now, &resp);
                self.drain(to);
            }
        }
    }

    /// True-time intervals during which node `i` believed it led: [elected, stepped down).
    pub fn leader_intervals(&self, i: usize) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut start = None;
        for (t, e) in &self.nodes[i].events {
            match e {
                CandidateEvent::Elected { .. } => start = Some(*t),
                CandidateEvent::SteppedDown { .. } => {
                    if let Some(s) = start.take() {
                        out.push((s, *t));
                    }
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((s, u64::MAX));
        }
        out
    }
}

pub fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}
