//! `cargo +nightly fuzz run raft`: arbitrary input sequences for the raft machine(s); see
//! `tenure_fuzz::raft` for what is asserted.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tenure_fuzz::raft(data));
