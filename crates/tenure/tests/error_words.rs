//! Every error the core returns to a caller reads in words: each config rule broken once,
//! each refused command, and no message carries Rust notation (`None`, `Some(`, `u64`,
//! `..=`, `Debug` braces, enum variant names).

use tenure::lease::{LeaseConfig, NotLeader as LeaseNotLeader};
use tenure::raft::{CampaignError, NotLeader};
use tenure::{BullyConfig, Duration, FencingToken, Instant, LeaseCandidate, NodeId, RaftConfig};

#[path = "../../../tests/words/words.rs"]
mod words;
use words::assert_words;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn every_lease_config_error_reads_in_words() {
    let d = LeaseConfig::default;
    let cases = [
        (
            "margin",
            LeaseConfig {
                safety_margin: ms(10_000),
                ..d()
            },
            "safety_margin 10000ms must be above 0 and below ttl 10000ms",
        ),
        (
            "renewal",
            LeaseConfig {
                renew_interval: Some(ms(8_500)),
                ..d()
            },
            "must be at most ttl",
        ),
        (
            "drift",
            LeaseConfig {
                max_drift_ppm: 200_000,
                ..d()
            },
            "must be at least ttl 10000ms x max_drift_ppm 200000 / 1000000 = 2000ms",
        ),
        (
            "drift range",
            LeaseConfig {
                max_drift_ppm: 1_000_000,
                ttl: ms(10_000),
                safety_margin: ms(9_000),
                renew_interval: Some(ms(1)),
                max_round_trip: ms(1),
                ..d()
            },
            "max_drift_ppm 1000000 must be 0 to 999999",
        ),
        (
            "renew zero",
            LeaseConfig {
                renew_interval: Some(Duration::ZERO),
                ..d()
            },
            "renew_interval 0ms must be above 0",
        ),
        (
            "retry zero",
            LeaseConfig {
                retry_interval: Duration::ZERO,
                ..d()
            },
            "retry_interval 0ms must be above 0",
        ),
        (
            "timeout zero",
            LeaseConfig {
                request_timeout: Duration::ZERO,
                ..d()
            },
            "request_timeout 0ms must be above 0",
        ),
    ];
    for (what, config, expect) in cases {
        let err = config.validate().expect_err(what);
        let text = err.to_string();
        assert!(text.contains(expect), "{what}: {text}");
        assert_words(what, &text);
    }
}

#[test]
fn every_raft_config_error_reads_in_words() {
    let d = || RaftConfig {
        peers: vec![NodeId(2), NodeId(3)],
        ..RaftConfig::default()
    };
    let cases = [
        (
            "timeout zero",
            RaftConfig {
                election_timeout: Duration::ZERO,
                ..d()
            },
            "election_timeout 0ms must be above 0",
        ),
        (
            "heartbeat",
            RaftConfig {
                heartbeat_interval: ms(150),
                ..d()
            },
            "heartbeat_interval 150ms must be above 0 and below election_timeout 150ms",
        ),
        (
            "entries",
            RaftConfig {
                max_entries_per_append: 0,
                ..d()
            },
            "max_entries_per_append 0 must be at least 1",
        ),
        (
            "range",
            RaftConfig {
                election_timeout_max: Some(ms(100)),
                ..d()
            },
            "election_timeout_max 100ms must be above election_timeout 150ms",
        ),
        (
            "inflight",
            RaftConfig {
                max_inflight_appends: 0,
                ..d()
            },
            "max_inflight_appends 0 must be at least 1",
        ),
        (
            "lease",
            RaftConfig {
                leader_lease: true,
                check_quorum: false,
                ..d()
            },
            "leader_lease true needs check_quorum true",
        ),
        (
            "drift",
            RaftConfig {
                max_drift_ppm: 1_000_000,
                ..d()
            },
            "max_drift_ppm 1000000 must be 0 to 999999",
        ),
        (
            "self",
            RaftConfig {
                peers: vec![NodeId(1)],
                ..d()
            },
            "peers must not contain the node's own id n1",
        ),
        (
            "duplicate",
            RaftConfig {
                peers: vec![NodeId(2), NodeId(2)],
                ..d()
            },
            "peers lists n2 more than once",
        ),
    ];
    for (what, config, expect) in cases {
        let text = config.validate().expect_err(what).to_string();
        assert!(text.contains(expect), "{what}: {text}");
        assert_words(what, &text);
    }
}

#[test]
fn every_bully_config_error_reads_in_words() {
    let d = BullyConfig::default;
    let cases = [
        (
            "self",
            BullyConfig {
                peers: vec![NodeId(1)],
                ..d()
            },
            "peers must not contain the node's own id n1",
        ),
        (
            "duplicate",
            BullyConfig {
                peers: vec![NodeId(2), NodeId(2)],
                ..d()
            },
            "peers lists n2 more than once",
        ),
        (
            "heartbeat",
            BullyConfig {
                heartbeat_interval: Duration::ZERO,
                ..d()
            },
            "heartbeat_interval 0ms must be above 0",
        ),
        (
            "failure",
            BullyConfig {
                failure_timeout: ms(50),
                ..d()
            },
            "failure_timeout 50ms must be above heartbeat_interval 50ms",
        ),
        (
            "answer",
            BullyConfig {
                answer_timeout: Duration::ZERO,
                ..d()
            },
            "answer_timeout 0ms must be above 0",
        ),
        (
            "coordinator",
            BullyConfig {
                coordinator_timeout: ms(50),
                ..d()
            },
            "coordinator_timeout 50ms must be above answer_timeout 50ms",
        ),
    ];
    for (what, config, expect) in cases {
        let text = config.validate().expect_err(what).to_string();
        assert!(text.contains(expect), "{what}: {text}");
        assert_words(what, &text);
    }
}

#[test]
fn refused_commands_read_in_words() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "raft propose, no leader",
            NotLeader::NotLeading {
                term: Some(3),
                leader: None,
            }
            .to_string(),
            "not the leader of term 3; no leader is known",
        ),
        (
            "raft propose, a leader",
            NotLeader::NotLeading {
                term: Some(3),
                leader: Some(NodeId(2)),
            }
            .to_string(),
            "the leader is n2",
        ),
        (
            "raft campaign, leader",
            CampaignError::AlreadyLeader { term: 4 }.to_string(),
            "already the leader of term 4",
        ),
        (
            "raft campaign, last term",
            CampaignError::TermExhausted { term: u64::MAX }.to_string(),
            "is the largest term (2^64 - 1)",
        ),
        (
            "lease not leading",
            LeaseNotLeader::NotLeading {
                term: None,
                leader: None,
            }
            .to_string(),
            "not the leader",
        ),
        (
            "lease deadline",
            LeaseNotLeader::DeadlinePassed {
                deadline: Instant::from_millis(9_000),
                now: Instant::from_millis(9_500),
            }
            .to_string(),
            "lease deadline",
        ),
        (
            "stale token",
            tenure::StaleToken {
                presented: FencingToken(3),
                required: FencingToken(4),
            }
            .to_string(),
            "presented #3, required at least #4",
        ),
    ];
    for (what, text, expect) in cases {
        assert!(text.contains(expect), "{what}: {text}");
        assert_words(what, &text);
    }
    // And as the machines return them.
    let mut c = LeaseCandidate::new(LeaseConfig::default()).expect("default config");
    let text = c
        .assert_leadership(Instant::from_millis(1))
        .expect_err("not leading")
        .to_string();
    assert_words("assert_leadership", &text);
}
