// `tenure/testing`: the conformance kit for store adapters (pkg/README.md "Testing a store").
export { checkStoreContract } from "./contract.js";
export { runDifferential } from "./differential.js";
export { CASES as contractCases } from "./cases.js";
