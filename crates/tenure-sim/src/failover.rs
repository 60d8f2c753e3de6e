//! Failover (to come).
