//! Errors of the `Simulation` binding: scenario and fault objects, event cursors, seeds.
//!
//! Like `crate::error::BindingError`, each becomes a real `TypeError`/`RangeError` (or a
//! plain `Error` when no randomness is available for a fresh seed) with a stable `code`;
//! the codes are listed in `SimulationErrorCode` (`simulation_types.rs`) and in
//! `pkg/README.md`. Messages are the simulator's own (`scenario: ...`, `fault: ...`), so
//! the CLI and the package say the same thing about the same mistake. Codes are API.

use wasm_bindgen::{JsCast, JsValue};

use crate::error::BindingError;

/// What an object argument was meant to be; picks the message prefix and the codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// A scenario (`new Simulation(scenario)`).
    Scenario,
    /// A fault (`sim.inject(fault)`).
    Fault,
}

impl Subject {
    /// The message prefix, as the simulator's own errors have it.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Subject::Scenario => "scenario",
            Subject::Fault => "fault",
        }
    }
}

/// Misuse of the `Simulation` class.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum SimulationError {
    /// Wrong shape: not an object, a value of the wrong type, a missing field, an unknown
    /// `type`/`algorithm`, a value JSON cannot hold (function, symbol, cycle).
    #[error("{message}")]
    Shape {
        /// Scenario or fault.
        subject: Subject,
        /// One line naming the value.
        message: String,
    },
    /// A key the format does not define (a typo such as `ttl` for `ttl_ms`).
    #[error("{message}")]
    UnknownKey {
        /// One line naming the key and the keys allowed.
        message: String,
    },
    /// A value out of range or inconsistent (NaN, negative time, unsupported version, a
    /// fault naming a process the world does not have, ...).
    #[error("{message}")]
    Invalid {
        /// Scenario or fault.
        subject: Subject,
        /// One line naming the value.
        message: String,
    },
    /// A boundary refusal shared with the machines: a list or string over its limit
    /// (`ERR_TOO_LARGE`), an object that is not plain (`ERR_OBJECT_TYPE`), a revoked Proxy
    /// (`ERR_REVOKED_PROXY`).
    #[error("{0}")]
    Boundary(BindingError),
    /// Scenario JSON text defining one key twice in an object (`ERR_DUPLICATE_KEY`): JSON
    /// leaves its meaning open, so it is refused rather than guessed.
    #[error("{message}")]
    DuplicateKey {
        /// One line naming the key and where.
        message: String,
    },
    /// A getter or Proxy trap of the input threw: rethrown as thrown (see `crate::js`).
    #[error("the input threw while it was read")]
    Thrown(JsValue),
    /// The `eventsSince` cursor was not a `number`.
    #[error("cursor must be a number, got {got}")]
    NotCursor {
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// The `eventsSince` cursor was negative, fractional or above 2^53 - 1.
    #[error(
        "cursor must be a whole number from 0 to 2 ** 53 - 1 (Number.MAX_SAFE_INTEGER), got {shown}"
    )]
    CursorOutOfRange {
        /// The value, as JS prints it.
        shown: String,
    },
    /// An `eventsSince` kinds list that is not an array of at most 256 strings
    /// (`ERR_KINDS_TYPE`, a `TypeError`).
    #[error("kinds must be an array of event names ({}), got {got}", tenure_sim::TraceKind::NAMES.join(", "))]
    NotKinds {
        /// `typeof` of the value (or of the first non-string in it) and a short preview.
        got: String,
    },
    /// An `eventsSince` kind that names no event (`ERR_KINDS_RANGE`, a `RangeError`).
    #[error("kinds: \"{name}\" is not an event; the events are {}", tenure_sim::TraceKind::NAMES.join(", "))]
    UnknownKind {
        /// The name given (its first 32 characters).
        name: String,
    },
    /// A `message(id)` id that is not a non-negative integer within 2^53 - 1
    /// (`ERR_MESSAGE_ID`, a `TypeError`).
    #[error(
        "message id must be a bigint or a whole number from 0 to 2 ** 53 - 1 (Number.MAX_SAFE_INTEGER), got {got}"
    )]
    NotMessageId {
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// The world stopped in a message storm (`tenure_sim::World::storm`): its queue grew
    /// past the bound (`ERR_STORM`, a `RangeError`).
    #[error("{message}")]
    Storm {
        /// The simulator's one line: how many events, when, and the knobs to change.
        message: String,
    },
}

impl SimulationError {
    /// The stable `code` property of the thrown error.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            SimulationError::Shape {
                subject: Subject::Scenario,
                ..
            } => "ERR_SCENARIO_TYPE",
            SimulationError::Shape {
                subject: Subject::Fault,
                ..
            } => "ERR_FAULT_TYPE",
            SimulationError::UnknownKey { .. } => "ERR_UNKNOWN_KEY",
            SimulationError::Invalid {
                subject: Subject::Scenario,
                ..
            } => "ERR_SCENARIO_RANGE",
            SimulationError::Invalid {
                subject: Subject::Fault,
                ..
            } => "ERR_FAULT_RANGE",
            SimulationError::NotCursor { .. } => "ERR_CURSOR_TYPE",
            SimulationError::CursorOutOfRange { .. } => "ERR_CURSOR_RANGE",
            SimulationError::NotMessageId { .. } => "ERR_MESSAGE_ID",
            SimulationError::NotKinds { .. } => "ERR_KINDS_TYPE",
            SimulationError::UnknownKind { .. } => "ERR_KINDS_RANGE",
            SimulationError::Boundary(err) => err.code(),
            SimulationError::DuplicateKey { .. } => "ERR_DUPLICATE_KEY",
            SimulationError::Thrown(_) => "ERR_INPUT_THREW",
            SimulationError::Storm { .. } => "ERR_STORM",
        }
    }

    /// Sorts a serde error message from reading a scenario or fault into the right class.
    ///
    /// serde's own messages start with a fixed phrase: wrong types, missing fields, unknown
    /// variants and wrong lengths are shape errors; unknown fields are unknown keys; anything
    /// else (`invalid value`, the simulator's "is not a time in milliseconds", "is not a
    /// probability") is a value out of range.
    pub(crate) fn from_serde(subject: Subject, detail: &str) -> SimulationError {
        let message = format!(
            "{}: {}",
            subject.name(),
            tenure_sim::serde_words::json_words(detail)
        );
        Self::sorted(subject, detail, message)
    }

    /// A refusal of the JS deserializer (`crate::js_de`): its class picks the code, its path
    /// leads the message (`scenario: faults[3].fault.node: expected ...`).
    pub(crate) fn from_de(subject: Subject, err: crate::js_de::DeError) -> SimulationError {
        use crate::js_de::{Class, DeError};
        let (class, detail, path) = match err {
            DeError::Boundary(e) => return e,
            DeError::Serde {
                class,
                message,
                path,
            } => (class, message, path),
        };
        let path = path.unwrap_or_default();
        let rel = path
            .strip_prefix(subject.name())
            .unwrap_or(&path)
            .trim_start_matches('.');
        let words = tenure_sim::serde_words::words_at(rel, &detail);
        let message = if rel.is_empty() {
            format!("{}: {words}", subject.name())
        } else {
            format!("{}: {rel}: {words}", subject.name())
        };
        match class {
            Class::Shape => SimulationError::Shape { subject, message },
            Class::UnknownKey => SimulationError::UnknownKey { message },
            Class::Duplicate => SimulationError::DuplicateKey { message },
            Class::Range => SimulationError::Invalid { subject, message },
        }
    }

    /// [`SimulationError::from_de`] for an input that is not a scenario (a search's options,
    /// a failover setting) read from `root`: its message names `root` where a scenario's
    /// names "scenario" (`failover setting: latency_ms[0]: expected a finite number ...`).
    pub(crate) fn from_de_at(root: &str, err: crate::js_de::DeError) -> SimulationError {
        let reroot = |message: String| {
            let m = message.strip_prefix("scenario: ").unwrap_or(&message);
            match m.strip_prefix(root) {
                // A list's index stays on its name: `plot series[0].samples_ms[1] ...`.
                // A sentence on the root itself: `seed must fit in 64 bits, ...`.
                Some(rest) if rest.starts_with(['[', ' ']) => format!("{root}{rest}"),
                Some(rest) => format!("{root}: {}", rest.trim_start_matches(['.', ':', ' '])),
                None => format!("{root}: {m}"),
            }
        };
        match SimulationError::from_de(Subject::Scenario, err) {
            SimulationError::Shape { subject, message } => SimulationError::Shape {
                subject,
                message: reroot(message),
            },
            SimulationError::Invalid { subject, message } => SimulationError::Invalid {
                subject,
                message: reroot(message),
            },
            SimulationError::UnknownKey { message } => SimulationError::UnknownKey {
                message: reroot(message),
            },
            SimulationError::DuplicateKey { message } => SimulationError::DuplicateKey {
                message: reroot(message),
            },
            other => other,
        }
    }

    fn sorted(subject: Subject, detail: &str, message: String) -> SimulationError {
        let shape = [
            "invalid type",
            "missing field",
            "unknown variant",
            "invalid length",
        ];
        if detail.starts_with("unknown field") {
            SimulationError::UnknownKey { message }
        } else if shape.iter().any(|p| detail.starts_with(p)) {
            SimulationError::Shape { subject, message }
        } else {
            SimulationError::Invalid { subject, message }
        }
    }
}

impl From<SimulationError> for JsValue {
    fn from(err: SimulationError) -> JsValue {
        let err = match err {
            SimulationError::Boundary(err) => return err.into(),
            SimulationError::Thrown(value) => return value,
            other => other,
        };
        let message = err.to_string();
        let error: js_sys::Error = match err {
            SimulationError::Shape { .. }
            | SimulationError::UnknownKey { .. }
            | SimulationError::DuplicateKey { .. }
            | SimulationError::Boundary(_)
            | SimulationError::Thrown(_)
            | SimulationError::NotCursor { .. }
            | SimulationError::NotMessageId { .. }
            | SimulationError::NotKinds { .. } => js_sys::TypeError::new(&message).unchecked_into(),
            SimulationError::Invalid { .. }
            | SimulationError::CursorOutOfRange { .. }
            | SimulationError::UnknownKind { .. }
            | SimulationError::Storm { .. } => js_sys::RangeError::new(&message).unchecked_into(),
        };
        // A data property on a fresh Error object: setting it cannot fail.
        let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &err.code().into());
        error.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_are_sorted_into_type_unknown_key_and_range() {
        let cases = [
            (
                "invalid type: string \"5\", expected u64",
                "ERR_SCENARIO_TYPE",
            ),
            ("missing field `nodes`", "ERR_SCENARIO_TYPE"),
            (
                "unknown variant `rafty`, expected one of ...",
                "ERR_SCENARIO_TYPE",
            ),
            (
                "unknown field `ttl`, expected one of `ttl_ms`",
                "ERR_UNKNOWN_KEY",
            ),
            (
                "-5 is not a time in milliseconds (finite, >= 0)",
                "ERR_SCENARIO_RANGE",
            ),
            (
                "nodes 0 must be a whole number from 1 to 64",
                "ERR_SCENARIO_RANGE",
            ),
        ];
        for (detail, code) in cases {
            let err = SimulationError::from_serde(Subject::Scenario, detail);
            assert_eq!(err.code(), code, "{detail}");
            assert_eq!(
                err.to_string(),
                format!("scenario: {}", tenure_sim::serde_words::json_words(detail))
            );
        }
        let err = SimulationError::from_serde(Subject::Fault, "missing field `node`");
        assert_eq!(err.code(), "ERR_FAULT_TYPE");
        assert_eq!(err.to_string(), "fault: the key \"node\" is required");
    }
}
