//! The machines module's heap allocator: talc in place of std's dlmalloc on wasm32.
//!
//! dlmalloc was about 8 KB of the machines module's 173 KB of code (malloc alone 4.8 KB);
//! talc's WebAssembly allocator is about 1 KB and frees and reuses memory as dlmalloc does
//! (docs/bindings.md, "Size budgets"). The `sim` and `search` modules keep dlmalloc: the
//! allocation-heavy simulator they carry was not measured with talc.

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
