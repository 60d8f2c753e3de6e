//! A value the user gave, as an error message shows it: whole when it is short, else its
//! first characters, "…" and its length, so that a 100 KB argument is not printed back in
//! full. Every error line the CLI prints goes through [`shorten_values`].

use std::ffi::OsString;

/// The longest value an error shows whole, in characters (a long path still fits).
const WHOLE: usize = 100;
/// How many characters of a longer value it shows.
const HEAD: usize = 40;

/// `value` as an error message shows it: whole up to 100 characters; past that its first 40
/// characters, "…" and its length: `{"ttl_ms": 2000, "xxxxxxxxxxxxxxxxxxxx… (100024
/// characters)`.
pub(crate) fn shown(value: &str) -> String {
    let n = value.chars().count();
    if n <= WHOLE {
        return value.to_string();
    }
    let head: String = value.chars().take(HEAD).collect();
    format!("{head}… ({n} characters)")
}

/// `line` (an error message) with every long value the user gave shortened by [`shown`]:
/// each argument (and the value of a `--flag=value`) where it appears whole, then any word
/// still longer than 100 characters, a part of an argument that a message quotes (a JSON
/// key, a number before its unit).
pub(crate) fn shorten_values(line: &str, args: &[OsString]) -> String {
    let mut line = line.to_string();
    let mut values: Vec<String> = Vec::new();
    for arg in args {
        let arg = arg.to_string_lossy();
        if let Some((_, v)) = arg.split_once('=')
            && arg.starts_with("--")
        {
            values.push(v.to_string());
        }
        values.push(arg.into_owned());
    }
    // Longest first, so that a value is not cut inside a longer one that holds it.
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for v in values {
        if v.chars().count() > WHOLE && line.contains(v.as_str()) {
            line = line.replace(v.as_str(), &shown(&v));
        }
    }
    if !line.split_whitespace().any(|w| w.chars().count() > WHOLE) {
        return line;
    }
    let mut out = String::with_capacity(line.len().min(4096));
    let mut word = String::new();
    for c in line.chars().chain(std::iter::once(' ')) {
        if c.is_whitespace() {
            out.push_str(&shown(&word));
            word.clear();
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_with_their_length() {
        assert_eq!(shown("60s"), "60s");
        let long = "x".repeat(100_000);
        assert_eq!(
            shown(&long),
            format!("{}… (100000 characters)", "x".repeat(40))
        );
        // Characters, not bytes: a cut never splits one.
        let wide = "é".repeat(200);
        assert_eq!(
            shown(&wide),
            format!("{}… (200 characters)", "é".repeat(40))
        );
        let args = vec![OsString::from("--duration"), OsString::from(long.clone())];
        let line = format!("--duration {long} is not a duration: give a unit");
        assert_eq!(
            shorten_values(&line, &args),
            format!(
                "--duration {}… (100000 characters) is not a duration: give a unit",
                "x".repeat(40)
            )
        );
        // A part of an argument that a message quotes is cut too.
        let line = format!("unknown key \"{long}\"; the keys are ttl_ms");
        assert_eq!(
            shorten_values(&line, &[]),
            format!(
                "unknown key \"{}… (100003 characters) the keys are ttl_ms",
                "x".repeat(39)
            )
        );
    }
}
