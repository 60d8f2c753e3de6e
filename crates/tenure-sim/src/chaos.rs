//! Chaos (to come).
