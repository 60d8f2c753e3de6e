//! The machines' config errors in the JS caller's words: the keys as the caller writes them
//! (`safety_margin_ms`, not the core's `safety_margin`), values in milliseconds as given,
//! node ids as bigints (`2n`), "(the default)" after a value the caller did not give, and
//! each rule in JS notation (`0 < safety_margin_ms < ttl_ms`). The wording is the core's
//! [`tenure::config_words`], shared with the simulator's scenario and CLI words; this file
//! says which keys the caller's object gave.

use tenure::LeaseConfigError as LeaseError;
use tenure::bully::ConfigError as BullyError;
use tenure::config_words::Caller;
use tenure::raft::ConfigError as RaftError;
use wasm_bindgen::JsValue;

/// Whether the caller's config had a key.
pub(crate) type Given<'a> = &'a dyn Fn(&str) -> bool;

/// `given` for a config object: a key counts as given when reading it yields anything but
/// `undefined` (as the reader treats it). `undefined` (all defaults) gives nothing.
pub(crate) fn given_in(config: &JsValue) -> impl Fn(&str) -> bool + '_ {
    move |key: &str| {
        config.is_object()
            && js_sys::Reflect::get(config, &JsValue::from_str(key))
                .map(|v| !v.is_undefined())
                .unwrap_or(false)
    }
}

/// A lease config error (design rule 5) in the caller's words.
pub(crate) fn lease(err: &LeaseError, given: Given<'_>) -> String {
    tenure::config_words::lease(err, &Caller::js(given))
}

/// A Raft config error in the caller's words.
pub(crate) fn raft(err: &RaftError, given: Given<'_>) -> String {
    tenure::config_words::raft(err, &Caller::js(given))
}

/// A Bully config error in the caller's words.
pub(crate) fn bully(err: &BullyError, given: Given<'_>) -> String {
    tenure::config_words::bully(err, &Caller::js(given))
}
