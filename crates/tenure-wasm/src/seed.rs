//! Fresh PRNG seeds for configs that give none: from getrandom, and reported back so the run
//! can be replayed (docs/design.md, "The JS face").

/// A fresh random `u64` from the platform's CSPRNG: getrandom's `wasm_js` backend, that is
/// `crypto.getRandomValues`.
///
/// getrandom cannot fail on Node >= 20 or a current browser; should it anyway, the seed falls
/// back to `Math.random()` bits, so a constructor never throws for want of entropy. The seed
/// is reported either way (each machine's `config`). Host builds (only `cargo test` and
/// clippy) have no JS and return 0.
#[cfg(target_arch = "wasm32")]
pub(crate) fn fresh_seed() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        // Two 32-bit draws; the casts keep the integer part of values in [0, 2^32).
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let draw = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
        (draw() << 32) | draw()
    })
}

/// Host builds have no JS: see the wasm32 version.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn fresh_seed() -> u64 {
    0
}
