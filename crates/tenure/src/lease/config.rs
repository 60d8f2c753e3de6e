//! [`LeaseConfig`]: a contender's settings, checked against design rule 5.

use super::message::LeaseKey;
use crate::id::NodeId;
use crate::time::Duration;

/// One million: `max_drift_ppm` is in parts per million.
const PPM: u64 = 1_000_000;

/// Settings of a [`LeaseCandidate`](super::LeaseCandidate). All durations are microseconds.
///
/// [`validate`](Self::validate) (called by the constructor) enforces design rule 5.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeaseConfig {
    /// This contender's id, sent as `holder` in every request. Default `NodeId(1)`.
    pub holder: NodeId,
    /// The lease contended for. Default `"leader"`.
    pub key: LeaseKey,
    /// Lease length requested from the store (us). Default 10 s.
    pub ttl: Duration,
    /// Subtracted from `ttl` to get the local deadline (rule 4), covering clock-rate drift
    /// (us). Must satisfy `0 < safety_margin < ttl`. Default 1 s.
    pub safety_margin: Duration,
    /// Time between a confirmed grant/renewal's send time and the next renewal (us).
    /// `None` means `ttl / 3`. Default `None`.
    pub renew_interval: Option<Duration>,
    /// The longest round trip to the store the deployment expects (us); a renewal sent at
    /// `renew_interval` must be answered before the deadline (rule 5). Default 1 s.
    pub max_round_trip: Duration,
    /// Bound on how much slower this contender's clock may run than the store's, in parts
    /// per million: the margin must cover `ttl * max_drift_ppm / 1e6` (rule 5). Below
    /// 1 000 000. Default 10 000 (1 %).
    pub max_drift_ppm: u32,
    /// Base time between acquisition attempts (us). Must be > 0. Default 1 s.
    pub retry_interval: Duration,
    /// Extra delay drawn uniformly from `[0, retry_jitter)` per attempt, from the seeded
    /// PRNG (us). Default 500 ms.
    pub retry_jitter: Duration,
    /// How long a leader waits for a renewal's answer before it sends a fresh renewal (us).
    /// Must be > 0. Default 1 s.
    pub request_timeout: Duration,
    /// Whether the driver presents the token to the resource (the default, `true`). With
    /// `false` the machine behaves identically but
    /// [`fences_writes`](super::LeaseCandidate::fences_writes) is `false`, so a driver writes
    /// unfenced: the playground uses it to show the stale-leader hazard (S01).
    pub fencing: bool,
    /// Seed of the PRNGs behind the retry jitter and the session, mixed with `holder`
    /// ([`node_seed`](crate::node_seed)), so contenders built from one seed with different
    /// ids draw different jitter and sessions. Default 0.
    pub seed: u64,
}

impl Default for LeaseConfig {
    fn default() -> Self {
        LeaseConfig {
            holder: NodeId(1),
            key: LeaseKey::from("leader"),
            ttl: Duration::from_secs(10),
            safety_margin: Duration::from_secs(1),
            renew_interval: None,
            max_round_trip: Duration::from_secs(1),
            max_drift_ppm: 10_000,
            retry_interval: Duration::from_secs(1),
            retry_jitter: Duration::from_millis(500),
            request_timeout: Duration::from_secs(1),
            fencing: true,
            seed: 0,
        }
    }
}

/// A [`LeaseConfig`] that breaks design rule 5 or would make the machine spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ConfigError {
    /// `safety_margin` is not strictly between 0 and `ttl` (rule 5).
    #[error(
        "safety_margin {safety_margin} must be above 0 and below ttl {ttl} \
         (0 < safety_margin < ttl, design rule 5)"
    )]
    MarginOutOfRange {
        /// The configured margin (us).
        safety_margin: Duration,
        /// The configured TTL (us).
        ttl: Duration,
    },
    /// `renew_interval + max_round_trip` exceeds `ttl - safety_margin` (rule 5).
    #[error(
        "renew_interval {renew_interval} + max_round_trip {max_round_trip} must be at most \
         ttl {ttl} - safety_margin {safety_margin} (design rule 5)"
    )]
    RenewalDoesNotFit {
        /// The effective renew interval (us; `ttl / 3` when not set).
        renew_interval: Duration,
        /// The configured round trip bound (us).
        max_round_trip: Duration,
        /// The configured TTL (us).
        ttl: Duration,
        /// The configured margin (us).
        safety_margin: Duration,
    },
    /// `safety_margin` is below the drift over one TTL (rule 5).
    #[error(
        "safety_margin {safety_margin} must be at least ttl {ttl} x max_drift_ppm \
         {max_drift_ppm} / 1000000 = {required} (design rule 5)"
    )]
    MarginBelowDrift {
        /// The configured margin (us).
        safety_margin: Duration,
        /// The configured TTL (us).
        ttl: Duration,
        /// The configured drift bound (ppm).
        max_drift_ppm: u32,
        /// The smallest margin that covers it (us).
        required: Duration,
    },
    /// `max_drift_ppm` is 1 000 000 or more: no margin below the TTL covers it.
    #[error("max_drift_ppm {max_drift_ppm} must be 0 to 999999")]
    DriftOutOfRange {
        /// The configured drift bound (ppm).
        max_drift_ppm: u32,
    },
    /// `renew_interval` is zero, which would renew in a loop.
    #[error("renew_interval {renew_interval} must be above 0")]
    RenewIntervalZero {
        /// The effective renew interval (us).
        renew_interval: Duration,
    },
    /// `retry_interval` is zero, which would retry in a loop.
    #[error("retry_interval {retry_interval} must be above 0")]
    RetryIntervalZero {
        /// The configured retry interval (us).
        retry_interval: Duration,
    },
    /// `request_timeout` is zero, which would resend in a loop.
    #[error("request_timeout {request_timeout} must be above 0")]
    RequestTimeoutZero {
        /// The configured request timeout (us).
        request_timeout: Duration,
    },
}

impl LeaseConfig {
    /// The renew interval in effect: `renew_interval`, or `ttl / 3` when `None`.
    pub fn effective_renew_interval(&self) -> Duration {
        self.renew_interval
            .unwrap_or_else(|| self.ttl.checked_div_or_zero(3))
    }

    /// The smallest margin covering `max_drift_ppm` over one TTL, rounded up (us).
    pub fn drift_margin(&self) -> Duration {
        self.drift_over(self.ttl)
    }

    /// The drift `max_drift_ppm` allows over `ttl`, rounded up (us): what the margin must
    /// cover for a lease of that length (rule 5), also for a TTL the store chose.
    pub fn drift_over(&self, ttl: Duration) -> Duration {
        let product = u128::from(ttl.as_micros()).saturating_mul(u128::from(self.max_drift_ppm));
        let micros = product.div_ceil(u128::from(PPM));
        Duration::from_micros(u64::try_from(micros).unwrap_or(u64::MAX))
    }

    /// Checks design rule 5: `0 < safety_margin < ttl`;
    /// `renew_interval + max_round_trip <= ttl - safety_margin`;
    /// `safety_margin >= ttl * max_drift_ppm / 1e6`; and non-zero intervals.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (ttl, safety_margin) = (self.ttl, self.safety_margin);
        if safety_margin == Duration::ZERO || safety_margin >= ttl {
            return Err(ConfigError::MarginOutOfRange { safety_margin, ttl });
        }
        let renew_interval = self.effective_renew_interval();
        if renew_interval == Duration::ZERO {
            return Err(ConfigError::RenewIntervalZero { renew_interval });
        }
        if renew_interval.saturating_add(self.max_round_trip) > ttl.saturating_sub(safety_margin) {
            return Err(ConfigError::RenewalDoesNotFit {
                renew_interval,
                max_round_trip: self.max_round_trip,
                ttl,
                safety_margin,
            });
        }
        if u64::from(self.max_drift_ppm) >= PPM {
            return Err(ConfigError::DriftOutOfRange {
                max_drift_ppm: self.max_drift_ppm,
            });
        }
        let required = self.drift_margin();
        if safety_margin < required {
            return Err(ConfigError::MarginBelowDrift {
                safety_margin,
                ttl,
                max_drift_ppm: self.max_drift_ppm,
                required,
            });
        }
        if self.retry_interval == Duration::ZERO {
            return Err(ConfigError::RetryIntervalZero {
                retry_interval: self.retry_interval,
            });
        }
        if self.request_timeout == Duration::ZERO {
            return Err(ConfigError::RequestTimeoutZero {
                request_timeout: self.request_timeout,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn default_is_valid_and_renews_every_third_of_the_ttl() {
        let c = LeaseConfig::default();
        assert_eq!(c.validate(), Ok(()));
        assert_eq!(
            c.effective_renew_interval(),
            Duration::from_micros(3_333_333)
        );
        assert!(c.fencing);
    }

    #[test]
    fn rule5_margin_must_be_strictly_inside_the_ttl() {
        for margin in [ms(0), ms(10_000), ms(20_000)] {
            let c = LeaseConfig {
                safety_margin: margin,
                ..LeaseConfig::default()
            };
            assert_eq!(
                c.validate(),
                Err(ConfigError::MarginOutOfRange {
                    safety_margin: margin,
                    ttl: ms(10_000)
                })
            );
        }
    }

    #[test]
    fn rule5_renewal_and_round_trip_must_fit_before_the_deadline() {
        let c = LeaseConfig {
            renew_interval: Some(ms(8_500)),
            ..LeaseConfig::default()
        };
        let err = c.validate().unwrap_err();
        assert_eq!(
            err,
            ConfigError::RenewalDoesNotFit {
                renew_interval: ms(8_500),
                max_round_trip: ms(1_000),
                ttl: ms(10_000),
                safety_margin: ms(1_000)
            }
        );
        assert_eq!(
            err.to_string(),
            "renew_interval 8500ms + max_round_trip 1000ms must be at most ttl 10000ms - \
             safety_margin 1000ms (design rule 5)"
        );
        // Exactly fitting is allowed.
        let c = LeaseConfig {
            renew_interval: Some(ms(8_000)),
            ..LeaseConfig::default()
        };
        assert_eq!(c.validate(), Ok(()));
    }

    #[test]
    fn rule5_margin_must_cover_the_drift_over_one_ttl() {
        let c = LeaseConfig {
            max_drift_ppm: 100_001,
            ..LeaseConfig::default()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::MarginBelowDrift {
                safety_margin: ms(1_000),
                ttl: ms(10_000),
                max_drift_ppm: 100_001,
                required: Duration::from_micros(1_000_010),
            })
        );
        let c = LeaseConfig {
            max_drift_ppm: 100_000,
            ..LeaseConfig::default()
        };
        assert_eq!(c.validate(), Ok(()));
        let c = LeaseConfig {
            max_drift_ppm: 1_000_000,
            ..LeaseConfig::default()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::DriftOutOfRange {
                max_drift_ppm: 1_000_000
            })
        );
    }

    #[test]
    fn zero_intervals_are_refused() {
        let c = LeaseConfig {
            retry_interval: ms(0),
            ..LeaseConfig::default()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::RetryIntervalZero {
                retry_interval: ms(0)
            })
        );
        let c = LeaseConfig {
            request_timeout: ms(0),
            ..LeaseConfig::default()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::RequestTimeoutZero {
                request_timeout: ms(0)
            })
        );
        let c = LeaseConfig {
            renew_interval: Some(ms(0)),
            ..LeaseConfig::default()
        };
        assert_eq!(
            c.validate(),
            Err(ConfigError::RenewIntervalZero {
                renew_interval: ms(0)
            })
        );
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let c = LeaseConfig {
            ttl: Duration::MAX,
            safety_margin: Duration::from_micros(u64::MAX - 1),
            max_round_trip: Duration::MAX,
            max_drift_ppm: 999_999,
            ..LeaseConfig::default()
        };
        assert!(c.validate().is_err());
    }
}
