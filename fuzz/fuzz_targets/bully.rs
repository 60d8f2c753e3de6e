//! `cargo +nightly fuzz run bully`: arbitrary input sequences for the bully machine(s); see
//! `tenure_fuzz::bully` for what is asserted.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tenure_fuzz::bully(data));
