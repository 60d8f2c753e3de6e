//! `cargo +nightly fuzz run lease`: arbitrary input sequences for the lease machine(s); see
//! `tenure_fuzz::lease` for what is asserted.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tenure_fuzz::lease(data));
