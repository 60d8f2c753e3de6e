//! The lease adapter's step-down causes and timer labels.

use crate::event::StepDownCause;
use tenure::{CandidateTimer, StepDownReason};

pub(super) fn cause_of(r: StepDownReason) -> StepDownCause {
    match r {
        StepDownReason::LeaseExpired => StepDownCause::LeaseExpired,
        StepDownReason::RenewalRejected => StepDownCause::RenewalRejected,
        StepDownReason::Fenced => StepDownCause::Fenced,
        StepDownReason::Released => StepDownCause::Released,
        StepDownReason::StoreUnreachable => StepDownCause::StoreUnreachable,
        _ => StepDownCause::Other,
    }
}

pub(super) fn timer_label(t: CandidateTimer) -> &'static str {
    match t {
        CandidateTimer::Retry => "Retry",
        CandidateTimer::Renew => "Renew",
        CandidateTimer::RequestTimeout => "RequestTimeout",
        CandidateTimer::LeaseDeadline => "LeaseDeadline",
    }
}
