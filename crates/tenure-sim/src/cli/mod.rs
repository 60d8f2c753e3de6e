//! CLI (to come).
