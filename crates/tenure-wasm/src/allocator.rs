//! The heap allocator of every wasm module: talc in place of std's dlmalloc on wasm32.
//!
//! dlmalloc was about 8 KB of the machines module's 173 KB of code (malloc alone 4.8 KB);
//! talc's WebAssembly allocator is about 1 KB and frees and reuses memory as dlmalloc does.
//! In the sim and search modules it saves 2.4 and 2.8 KB gzipped, and the simulator's wasm
//! speed stayed within noise of dlmalloc's (paired runs; docs/bindings.md, "Size budgets").

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
