//! The error-wording tests' one list of Rust-isms (`rust-isms.txt`, beside this file) and
//! the check every test applies to a message. Included by path from each crate's
//! `tests/error_words.rs` (and the CLI's `cli_conventions.rs`); the JS test reads the same
//! list.

#![allow(dead_code)] // each test file uses the part it needs

/// Every entry of `rust-isms.txt`.
pub(crate) fn rust_isms() -> Vec<&'static str> {
    include_str!("rust-isms.txt")
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let entry = l.strip_prefix('"').and_then(|l| l.strip_suffix('"'));
            assert!(
                entry.is_some(),
                "rust-isms.txt: {l:?} is not in double quotes"
            );
            entry.unwrap_or(l)
        })
        .collect()
}

/// Panics unless `message` is one non-empty line free of Rust-isms.
pub(crate) fn assert_words(what: &str, message: &str) {
    // "invariant" is the field's word; "variant" alone is Rust's.
    let words = message.replace("invariant", "");
    for bad in rust_isms() {
        assert!(!words.contains(bad), "{what}: `{message}` contains `{bad}`");
    }
    assert!(
        !message.trim().is_empty() && !message.contains('\n'),
        "{what}: {message:?}"
    );
}
