//! Deterministic simulator (to come).
