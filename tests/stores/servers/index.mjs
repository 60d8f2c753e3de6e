// The real servers the store tests and the store benchmark start. Each one: 127.0.0.1, a free
// port, a throwaway folder, stopped by pid at the end (tests/stores/helpers.mjs `useServer`
// ties one to node:test's `after`, so a failing test still stops it).
export { startRedis } from "./redis.mjs";
export { startPostgres } from "./postgres.mjs";
export { startEtcd, startEtcdCluster } from "./etcd.mjs";
export { startProcess, tempDir } from "./process.mjs";
export { freePort } from "./ports.mjs";
