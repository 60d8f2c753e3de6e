//! Bindings (to come).
