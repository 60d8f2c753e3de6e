//! Fencing tokens and the resource that checks them (design rule 1).
//!
//! A fencing token is the number a coordination store issues with each leadership grant; it
//! grows by one on every new grant (rule 2). The protected resource remembers the highest
//! token it has seen and refuses anything lower, so a deposed leader that wakes from a pause
//! cannot write, whatever it believes (scenario S01, Kleppmann 2016).
//!
//! ```
//! use tenure::{FencedResource, FencingToken, StaleToken};
//!
//! let mut resource = FencedResource::new();
//! resource.write(FencingToken(33), "from C1").unwrap();
//! resource.establish(FencingToken(34)).unwrap(); // C2 installs its generation first
//! let late = resource.write(FencingToken(33), "late write from C1");
//! assert_eq!(late, Err(StaleToken { presented: FencingToken(33), required: FencingToken(34) }));
//! assert_eq!(resource.value(), Some(&"from C1"));
//! ```

use core::fmt;

/// A fencing token: strictly increasing per key across grants, never reused (rule 2).
///
/// `u64` in Rust, `bigint` in JS. `FencingToken(0)` is below every token a store issues
/// (stores start at 1), so a fresh resource accepts any token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct FencingToken(pub u64);

impl fmt::Display for FencingToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Why a write or `establish` was refused: the presented token is below the highest seen.
///
/// A normal outcome, not misuse: it is how a resource tells a leader it has been deposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[error("stale fencing token: presented {presented}, required at least {required}")]
pub struct StaleToken {
    /// The token the writer presented.
    pub presented: FencingToken,
    /// The highest token the resource has seen; a write needs at least this.
    pub required: FencingToken,
}

impl StaleToken {
    /// The reason string the seed's resource returns, kept verbatim for JS callers.
    pub const REASON: &'static str = "stale fencing token";
}

/// A resource guarded by fencing tokens, holding one value of type `V`.
///
/// Rule 1: a write with a token `>=` the highest seen is accepted (so the same leader can
/// write again) and raises the highest; a lower token is rejected with [`StaleToken`] and
/// changes nothing. [`establish`](Self::establish) raises the highest without writing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FencedResource<V> {
    highest: FencingToken,
    value: Option<V>,
}

impl<V> Default for FencedResource<V> {
    fn default() -> Self {
        FencedResource {
            highest: FencingToken(0),
            value: None,
        }
    }
}

impl<V> FencedResource<V> {
    /// An empty resource whose highest token is `FencingToken(0)`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Installs `token` as the highest without writing, as a new leader does before it acts
    /// (rule 1; scenario S16, the control-plane generation hand-off).
    ///
    /// Returns the highest token afterwards. Errors with [`StaleToken`] if `token` is below
    /// the highest, leaving the resource unchanged. Establishing the current highest again is
    /// accepted (idempotent).
    pub fn establish(&mut self, token: FencingToken) -> Result<FencingToken, StaleToken> {
        self.check(token)?;
        self.highest = token;
        Ok(token)
    }

    /// Writes `value` under `token` (rule 1).
    ///
    /// Accepted when `token >= highest_token()`: the value is replaced, the highest becomes
    /// `token`, and `Ok(token)` is returned. Otherwise `Err(StaleToken { presented, required })`
    /// and nothing changes.
    pub fn write(&mut self, token: FencingToken, value: V) -> Result<FencingToken, StaleToken> {
        self.check(token)?;
        self.highest = token;
        self.value = Some(value);
        Ok(token)
    }

    /// Whether a write with `token` would be accepted now, without writing.
    pub fn check(&self, token: FencingToken) -> Result<(), StaleToken> {
        if token < self.highest {
            Err(StaleToken {
                presented: token,
                required: self.highest,
            })
        } else {
            Ok(())
        }
    }

    /// The highest token seen, through a write or [`establish`](Self::establish).
    pub fn highest_token(&self) -> FencingToken {
        self.highest
    }

    /// The last accepted value, `None` before the first accepted write.
    pub fn value(&self) -> Option<&V> {
        self.value.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stale(presented: u64, required: u64) -> StaleToken {
        StaleToken {
            presented: FencingToken(presented),
            required: FencingToken(required),
        }
    }

    #[test]
    fn equal_token_is_accepted_so_a_leader_can_write_again() {
        // Rule 1: ">= the highest", not "> the highest" as one seed's snippet has it.
        let mut r = FencedResource::new();
        assert_eq!(r.write(FencingToken(5), 'a'), Ok(FencingToken(5)));
        assert_eq!(r.write(FencingToken(5), 'b'), Ok(FencingToken(5)));
        assert_eq!(r.value(), Some(&'b'));
        assert_eq!(r.highest_token(), FencingToken(5));
    }

    #[test]
    fn lower_token_is_rejected_and_changes_nothing() {
        let mut r = FencedResource::new();
        r.write(FencingToken(34), "new").unwrap();
        assert_eq!(r.write(FencingToken(33), "old"), Err(stale(33, 34)));
        assert_eq!(r.value(), Some(&"new"));
        assert_eq!(r.highest_token(), FencingToken(34));
    }

    #[test]
    fn s16_establish_then_stale_write_is_rejected() {
        // Scenario S16 (docs/scenarios.md): B installs 42 before issuing commands;
        // A's delayed command with 41 is refused.
        let mut r = FencedResource::new();
        r.write(FencingToken(41), "upgrade by A").unwrap();
        assert_eq!(r.establish(FencingToken(42)), Ok(FencingToken(42)));
        assert_eq!(
            r.write(FencingToken(41), "late command by A"),
            Err(stale(41, 42))
        );
        assert_eq!(r.value(), Some(&"upgrade by A"));
        assert_eq!(r.establish(FencingToken(41)), Err(stale(41, 42)));
        assert_eq!(r.establish(FencingToken(42)), Ok(FencingToken(42)));
    }

    #[test]
    fn u64_max_is_a_valid_token_and_stays_highest() {
        let mut r = FencedResource::new();
        assert_eq!(
            r.write(FencingToken(u64::MAX), 1),
            Ok(FencingToken(u64::MAX))
        );
        assert_eq!(
            r.write(FencingToken(u64::MAX), 2),
            Ok(FencingToken(u64::MAX))
        );
        assert_eq!(
            r.write(FencingToken(u64::MAX - 1), 3),
            Err(stale(u64::MAX - 1, u64::MAX))
        );
        assert_eq!(r.value(), Some(&2));
    }

    #[test]
    fn fresh_resource_accepts_any_token() {
        let mut r: FencedResource<()> = FencedResource::new();
        assert_eq!(r.highest_token(), FencingToken(0));
        assert_eq!(r.value(), None);
        assert!(r.check(FencingToken(0)).is_ok());
        assert_eq!(r.write(FencingToken(0), ()), Ok(FencingToken(0)));
    }
}
