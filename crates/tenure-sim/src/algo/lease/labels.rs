//! The lease adapter's trace labels for step-down reasons and timers.

use tenure::{CandidateTimer, StepDownReason};

pub(super) fn reason_label(r: StepDownReason) -> &'static str {
    match r {
        StepDownReason::LeaseExpired => "lease-expired",
        StepDownReason::RenewalRejected => "renewal-rejected",
        StepDownReason::Fenced => "fenced",
        StepDownReason::Released => "released",
        StepDownReason::StoreUnreachable => "store-unreachable",
        _ => "other",
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
