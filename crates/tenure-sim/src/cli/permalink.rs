//! Playground permalinks and counterexample files, shared by `search`, `check` and `chaos`.
//!
//! The hash format is the page's (web/playground/permalink.js):
//! `#s=<base64url(raw DEFLATE(compact scenario JSON)), no padding>&t=<ms>`. The page inflates
//! it with fflate's `inflateSync` (raw DEFLATE, RFC 1951); here miniz_oxide deflates and
//! base64 encodes with the URL-safe alphabet (RFC 4648 §5).

use super::CliError;
use super::out::outln;
use crate::scenario::Scenario;
use base64::Engine;
use std::path::Path;

/// Where the playground is served (`npm start`); `TENURE_PLAYGROUND` overrides it.
pub(crate) const DEFAULT_PLAYGROUND: &str = "http://127.0.0.1:5173/";

/// The URL hash (with `#`) that opens `scenario` at `time_ms` in the playground.
pub fn permalink_hash(scenario: &Scenario, time_ms: u64) -> String {
    let json = serde_json::to_string(scenario).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    let s = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed);
    format!("#s={s}&t={time_ms}")
}

/// The playground URL for `scenario` at `time_ms`.
pub(crate) fn permalink(scenario: &Scenario, time_ms: u64) -> String {
    let base = std::env::var("TENURE_PLAYGROUND").unwrap_or_else(|_| DEFAULT_PLAYGROUND.into());
    format!("{base}{}", permalink_hash(scenario, time_ms))
}

/// The most a file may hold for [`check_replaceable`] to read it (scenario files are small;
/// the scenario reader's own limit is 8 MiB).
const MAX_REPLACED_BYTES: u64 = 8 << 20;

/// Whether `path` holds a Tenure scenario (a file that reads as one).
fn is_scenario(path: &Path) -> bool {
    let small = std::fs::metadata(path).is_ok_and(|m| m.len() <= MAX_REPLACED_BYTES);
    small
        && std::fs::read_to_string(path)
            .ok()
            .is_some_and(|text| Scenario::from_json(crate::scenario::without_bom(&text)).is_ok())
}

/// Refuses to replace a file at `path` that is not a scenario (new-user review: `search --out
/// notes.txt` replaced the notes without a word). A scenario there, such as the last run's
/// counterexample under the default name, is replaced, and [`emit`] says so. `given`: the
/// user gave `--out` (else the path is followed by "(the default)").
pub(crate) fn check_replaceable(path: &Path, given: bool) -> Result<(), String> {
    if path.is_file() && !is_scenario(path) {
        return Err(format!(
            "--out {}{}: the file exists and is not a Tenure scenario, so it is not replaced: \
             move it, or give --out another file",
            path.display(),
            if given { "" } else { " (the default)" }
        ));
    }
    Ok(())
}

/// Writes `scenario` to `path` and prints its file, replay command and permalink; a file
/// already there is replaced only if it is a scenario ([`check_replaceable`]), and the line
/// says it was.
pub(crate) fn emit(scenario: &Scenario, path: &Path, time_ms: u64) -> Result<(), CliError> {
    let replaced = path.is_file();
    if replaced && !is_scenario(path) {
        // `search` and `check` refused this before they ran; `chaos` names its own files.
        return Err(CliError::usage(format!(
            "{}: the file exists and is not a Tenure scenario, so it is not replaced: move it",
            path.display()
        )));
    }
    std::fs::write(path, scenario.to_json() + "\n").map_err(|e| CliError {
        message: format!(
            "cannot write the scenario to {}: {}",
            path.display(),
            super::args::io_words(&e)
        ),
        code: 2,
    })?;
    let shown = path.display().to_string();
    let quoted = if shown.contains(char::is_whitespace) {
        format!("'{shown}'")
    } else {
        shown.clone()
    };
    if replaced {
        outln!("  scenario:   {shown} (replaced the scenario that was there)");
    } else {
        outln!("  scenario:   {shown}");
    }
    outln!("  replay:     tenure run {quoted}");
    outln!("  playground: {}", permalink(scenario, time_ms));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    #[test]
    fn the_hash_inflates_back_to_the_scenario() {
        let s = Scenario::new(crate::Algorithm::Bully, 3, 7, 1_000);
        let hash = permalink_hash(&s, 250);
        let rest = hash.strip_prefix("#s=").unwrap_or_default();
        let (packed, t) = rest.split_once("&t=").unwrap_or_default();
        assert_eq!(t, "250");
        assert!(
            packed
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(packed)
            .unwrap_or_default();
        let json = miniz_oxide::inflate::decompress_to_vec(&bytes).unwrap_or_default();
        let back = Scenario::from_json(&String::from_utf8(json).unwrap_or_default());
        assert_eq!(back, Ok(s));
    }
}
