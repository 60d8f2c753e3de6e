//! What a search looks for: a promised invariant, or a property the playground shows.
//!
//! A [`Monitor`] watches one run in [`CHUNK_MS`] slices of true time and reports the first
//! [`Witness`]: a violation of the property, with its time and a one-line detail. The same
//! slicing is used when searching, shrinking and replaying, so a witness replays exactly.

use crate::checker::InvariantKind;
use crate::scenario::{Scenario, ScenarioError};
use crate::world::World;
use core::fmt;
use core::str::FromStr;
use serde::Serialize;
use tenure::Instant;

/// The monitor looks at the world every this many ms of true time.
pub const CHUNK_MS: u64 = 10;

/// A property a run may violate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// Any invariant the algorithm promises ([`crate::checker::promises`]); the checker's own
    /// verdict, so it fails exactly when `tenure run` fails.
    AnyPromised,
    /// Two nodes acting as leader at the same true time, promised or not (Bully and Raft
    /// without CheckQuorum allow it; the lease forbids it only under its premise).
    SplitBrain,
    /// The resource accepted a write with a token below one it had seen (lease worlds).
    StaleWrite,
    /// No node acted as leader for more than `ms` milliseconds in a row (from the start of
    /// the run, sampled every [`CHUNK_MS`]).
    NoLeaderFor {
        /// The longest leaderless stretch allowed, ms.
        ms: u64,
    },
    /// One named invariant, promised or not (`election-safety`, `token-monotonic`, ...).
    Invariant(InvariantKind),
}

/// The properties with a name of their own, as the CLI, the options and the TypeScript type
/// `SearchProperty` write them (generated from this list: `crate::ts::search_declarations`);
/// beside them a property is `no-leader-for=DURATION` or one of [`INVARIANTS`].
pub const NAMED: [(&str, Property); 3] = [
    ("any-promised", Property::AnyPromised),
    ("split-brain", Property::SplitBrain),
    ("stale-write", Property::StaleWrite),
];

/// The invariants a property may name (`election-safety`, ...): every kind the checker has
/// but split brain, which is the named property `split-brain` ([`NAMED`]: two leaders at once,
/// promised or not, not only the checker's verdict). Taken from the checker's own list, so a
/// kind added there is nameable here.
pub const INVARIANTS: [InvariantKind; InvariantKind::ALL.len() - 1] = {
    let mut out = [InvariantKind::Liveness; InvariantKind::ALL.len() - 1];
    let (mut i, mut j) = (0, 0);
    while i < InvariantKind::ALL.len() {
        if !matches!(InvariantKind::ALL[i], InvariantKind::SplitBrain) {
            out[j] = InvariantKind::ALL[i];
            j += 1;
        }
        i += 1;
    }
    out
};

/// The invariants the checker watches in a world of `spec`'s algorithm, promised or not:
/// the Raft checker's in Raft worlds, the lease checker's where a store and resource exist,
/// liveness everywhere (docs/search.md, "Which properties apply").
fn watched(spec: &crate::algo::AlgorithmSpec, kind: InvariantKind) -> bool {
    use InvariantKind as K;
    match kind {
        K::ElectionSafety | K::TermMonotonic | K::LogMatching | K::LeaderCompleteness => {
            spec.family == "raft"
        }
        K::SingleValidHolder
        | K::TokenMonotonic
        | K::ResourceTokenMonotonic
        | K::TokenPerSession
        | K::StaleWriteAccepted => spec.has_store(),
        _ => true,
    }
}

impl Property {
    /// Refuses a property no run of `algorithm` could break because its worlds never check it
    /// (Bully has no log, so `log-matching` always "held"): a search or check of it would
    /// report "no violation" and prove nothing. The message lists what those worlds check.
    pub fn check_applies(&self, algorithm: crate::Algorithm) -> Result<(), ScenarioError> {
        let spec = algorithm.spec();
        let kind = match self {
            Property::StaleWrite => InvariantKind::StaleWriteAccepted,
            Property::Invariant(k) => *k,
            _ => return Ok(()),
        };
        if watched(spec, kind) {
            return Ok(());
        }
        let checked: Vec<&str> = INVARIANTS
            .into_iter()
            .filter(|k| watched(spec, *k))
            .map(InvariantKind::name)
            .collect();
        let why = if kind == InvariantKind::StaleWriteAccepted {
            format!("needs a fenced resource, which only lease worlds have, not {algorithm}")
        } else {
            format!("is never checked in {algorithm} worlds, so no run could break it")
        };
        Err(ScenarioError::Invalid(format!(
            "property {self} {why}: give any-promised, split-brain, \
             no-leader-for=DURATION or one of the invariants {algorithm} worlds check: {}",
            checked.join(", ")
        )))
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Property::AnyPromised => f.write_str(NAMED[0].0),
            Property::SplitBrain => f.write_str(NAMED[1].0),
            Property::StaleWrite => f.write_str(NAMED[2].0),
            Property::NoLeaderFor { ms } => write!(f, "no-leader-for={ms}ms"),
            Property::Invariant(k) => f.write_str(k.name()),
        }
    }
}

/// The longest `no-leader-for=`, ms: the longest run, as the refusal spells it.
const LONGEST_MS: u64 = 1_000_000_000;
const _: () = assert!(LONGEST_MS == crate::scenario::MAX_DURATION_MS);

impl FromStr for Property {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        // `stale-write-accepted`, the invariant's name, is the property `stale-write`.
        let named = if s == "stale-write-accepted" {
            "stale-write"
        } else {
            s
        };
        if let Some((_, p)) = NAMED.iter().find(|(n, _)| *n == named) {
            return Ok(*p);
        }
        if let Some(d) = s.strip_prefix("no-leader-for=") {
            // The duration flags' parser (units ms, s, m, h; whole ms), so the CLI and JS
            // read the same durations; its words follow the property's own text. One
            // `format!` for every refusal: each one grows the wasm modules.
            let why: String = match crate::duration::duration_ms(d) {
                Ok(ms) if ms > 0 && ms <= LONGEST_MS => {
                    return Ok(Property::NoLeaderFor { ms });
                }
                // A bare number could mean seconds or ms: its unit is asked for by example.
                Err(_) if crate::duration::is_number(d.trim()) => format!(
                    "has a duration without a unit: give one, as in no-leader-for={d}ms or \
                     no-leader-for={d}s"
                ),
                Ok(0) => "needs a duration above 0, as in no-leader-for=2s or no-leader-for=1500ms"
                    .into(),
                // No run lasts longer, so the property could never be broken: refused with
                // the allowed range (new-user review: a huge value was told it lacked a
                // unit).
                Ok(_) => "is longer than any run: give no-leader-for= a duration from 1ms to \
                          1000000000ms (10^9 ms, about 11.6 days, the longest run)"
                    .into(),
                Err(why) => why,
            };
            return Err(format!("`{s}` {why}"));
        }
        INVARIANTS
            .into_iter()
            .find(|k| k.name() == s)
            .map(Property::Invariant)
            .ok_or_else(|| {
                format!(
                    "`{s}` is not a property: give any-promised, split-brain, stale-write, \
                     no-leader-for=DURATION (2s) or an invariant name such as election-safety"
                )
            })
    }
}

/// A run's violation of a property.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Witness {
    /// What broke: the property, or for `any-promised` the invariant's name.
    pub kind: String,
    /// True time in us at which the monitor saw it (`time_ms` in JSON).
    #[serde(rename = "time_ms", serialize_with = "crate::units::ser_ms")]
    pub time_us: u64,
    /// One line naming the values.
    pub detail: String,
}

/// Watches one run for one property.
#[derive(Clone, Debug)]
pub struct Monitor {
    property: Property,
    leaderless_since_us: Option<u64>,
    longest_leaderless_us: u64,
}

impl Monitor {
    /// A monitor for `property`.
    pub fn new(property: Property) -> Monitor {
        Monitor {
            property,
            leaderless_since_us: None,
            longest_leaderless_us: 0,
        }
    }

    /// Looks at the world now; the first violation of the property, if there is one yet.
    pub fn observe(&mut self, world: &World) -> Option<Witness> {
        let now = world.now().as_micros();
        match self.property {
            Property::AnyPromised => {
                world
                    .violations()
                    .iter()
                    .find(|v| v.promised)
                    .map(|v| Witness {
                        kind: v.kind.name().to_string(),
                        time_us: v.time_us,
                        detail: v.detail.clone(),
                    })
            }
            Property::Invariant(k) => {
                world
                    .violations()
                    .iter()
                    .find(|v| v.kind == k)
                    .map(|v| Witness {
                        kind: k.name().to_string(),
                        time_us: v.time_us,
                        detail: v.detail.clone(),
                    })
            }
            Property::SplitBrain => {
                let m = world.metrics();
                (m.leaders_now >= 2 || m.split_brain_us > 0).then(|| {
                    let leaders: Vec<String> =
                        world.leaders().iter().map(|n| n.0.to_string()).collect();
                    Witness {
                        kind: "split-brain".into(),
                        time_us: now,
                        detail: if m.leaders_now >= 2 {
                            format!("nodes {} act as leader at once", leaders.join(" and "))
                        } else {
                            format!(
                                "two nodes acted as leader at once for {} us",
                                m.split_brain_us
                            )
                        },
                    }
                })
            }
            Property::StaleWrite => {
                let m = world.metrics();
                (m.stale_writes_accepted > 0).then(|| {
                    let detail = world
                        .violations()
                        .iter()
                        .find(|v| v.kind == InvariantKind::StaleWriteAccepted)
                        .map_or_else(
                            || "the resource accepted a stale write".to_string(),
                            |v| v.detail.clone(),
                        );
                    Witness {
                        kind: "stale-write".into(),
                        time_us: now,
                        detail,
                    }
                })
            }
            Property::NoLeaderFor { ms } => {
                if world.metrics().leaders_now > 0 {
                    self.leaderless_since_us = None;
                    return None;
                }
                let since = *self.leaderless_since_us.get_or_insert(now);
                let stretch = now.saturating_sub(since);
                self.longest_leaderless_us = self.longest_leaderless_us.max(stretch);
                (stretch > ms.saturating_mul(1_000)).then(|| Witness {
                    kind: self.property.to_string(),
                    time_us: now,
                    detail: format!("no node acted as leader from {since} us to {now} us"),
                })
            }
        }
    }

    /// How close the run came, for "best so far": the longest split brain or leaderless
    /// stretch (us), stale writes accepted, or violations recorded.
    pub fn score(&self, world: &World) -> u64 {
        let m = world.metrics();
        match self.property {
            Property::SplitBrain => m.worst_split_brain_us,
            Property::StaleWrite => m.stale_writes_accepted,
            Property::NoLeaderFor { .. } => self.longest_leaderless_us,
            Property::AnyPromised | Property::Invariant(_) => world.violations().len() as u64,
        }
    }
}

/// One run of a scenario under a monitor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The first violation, if any.
    pub witness: Option<Witness>,
    /// How close the run came ([`Monitor::score`]).
    pub score: u64,
    /// Trace events processed.
    pub events: u64,
    /// The trace hash when the run stopped (at its end when `to_end`, or at the witness).
    pub trace_hash: u64,
}

/// Runs `scenario` and watches it for `property`. With `to_end` false the run stops at the
/// first witness (searching, shrinking); with `to_end` true it runs to the scenario's end, so
/// the trace hash is the one `tenure run` prints (replaying).
pub fn evaluate(
    scenario: &Scenario,
    property: Property,
    to_end: bool,
) -> Result<Outcome, ScenarioError> {
    let mut world = World::new(scenario)?;
    // The monitor reads snapshots, metrics and violations, never the event log.
    world.keep_recent_events(0);
    let mut monitor = Monitor::new(property);
    let end = scenario.duration_ms.duration().as_millis();
    let mut witness = monitor.observe(&world);
    let mut t = 0u64;
    while t < end && (to_end || witness.is_none()) {
        t = t.saturating_add(CHUNK_MS).min(end);
        world.run_until(Instant::from_millis(t));
        if witness.is_none() {
            witness = monitor.observe(&world);
        }
    }
    if let Some(why) = world.storm() {
        return Err(ScenarioError::Storm(why.to_string()));
    }
    Ok(Outcome {
        witness,
        score: monitor.score(&world),
        events: world.metrics().events,
        trace_hash: world.trace_hash(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_property_parses_and_prints_back_as_its_name() {
        for (name, property) in NAMED {
            assert_eq!(name.parse::<Property>(), Ok(property));
            assert_eq!(property.to_string(), name);
        }
    }

    #[test]
    fn properties_parse_and_print_back() {
        for s in [
            "any-promised",
            "split-brain",
            "stale-write",
            "election-safety",
        ] {
            let p: Property = s.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.to_string(), s);
        }
        assert_eq!(
            "no-leader-for=2s".parse::<Property>(),
            Ok(Property::NoLeaderFor { ms: 2_000 })
        );
        assert_eq!(
            "no-leader-for=250ms".parse::<Property>(),
            Ok(Property::NoLeaderFor { ms: 250 })
        );
        assert!("no-leader-for=0s".parse::<Property>().is_err());
        assert_eq!(
            "no-leader-for=1000000000ms".parse::<Property>(),
            Ok(Property::NoLeaderFor { ms: 1_000_000_000 })
        );
        for huge in [
            "no-leader-for=1000000001ms",
            "no-leader-for=2000000000s",
            "no-leader-for=99999999999999999999s",
        ] {
            let e = huge.parse::<Property>().unwrap_err();
            assert!(e.contains("from 1ms to 1000000000ms"), "{e}");
        }
        assert!("no-leader-for=soon".parse::<Property>().is_err());
        // Break-it pass: JS `Search` refused `no-leader-for=1h`, which the CLI took; both
        // read the duration flags' units now, and a fraction of a millisecond is named as
        // such, not as a duration "above 0 with a unit".
        assert_eq!(
            "no-leader-for=2m".parse::<Property>(),
            Ok(Property::NoLeaderFor { ms: 120_000 })
        );
        assert_eq!(
            "no-leader-for=1h".parse::<Property>(),
            Ok(Property::NoLeaderFor { ms: 3_600_000 })
        );
        assert_eq!(
            "no-leader-for=1.5s".parse::<Property>(),
            Ok(Property::NoLeaderFor { ms: 1_500 })
        );
        let fine = "no-leader-for=0.5ms".parse::<Property>().unwrap_err();
        assert!(
            fine.starts_with("`no-leader-for=0.5ms` is finer than 1 ms"),
            "{fine}"
        );
        let unit = "no-leader-for=1us".parse::<Property>().unwrap_err();
        assert!(
            unit.starts_with("`no-leader-for=1us` is not a duration: unknown unit `us`"),
            "{unit}"
        );
        let huge = "no-leader-for=99999999999999999999999h".parse::<Property>();
        assert!(huge.unwrap_err().contains("longer than any run"));
        let bare = "no-leader-for=2000".parse::<Property>().unwrap_err();
        assert!(bare.contains("no-leader-for=2000ms"), "{bare}");
        assert!("splitbrain".parse::<Property>().is_err());
    }

    #[test]
    fn a_quiet_raft_run_has_a_leader_within_a_second() {
        let s = Scenario::new(crate::Algorithm::Raft, 3, 1, 3_000);
        let quiet = evaluate(&s, Property::NoLeaderFor { ms: 1_000 }, true);
        let quiet = quiet.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(quiet.witness, None);
        assert!(quiet.score > 0 && quiet.score < 1_000_000);
        let strict = evaluate(&s, Property::NoLeaderFor { ms: 20 }, false);
        let strict = strict.unwrap_or_else(|e| panic!("{e}"));
        assert!(
            strict.witness.is_some(),
            "the first election takes over 20 ms"
        );
    }
}
