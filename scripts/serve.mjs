// The one dev server for web/: used by `npm start` and by the browser tests, so the tests
// load the page exactly as a developer sees it. Vite serves web/ and resolves the bare
// `tenure` import to pkg/ (linked by the root package.json's "tenure": "file:pkg").
import { join } from "node:path";
import { createServer } from "vite";
import { root } from "./lib/run.mjs";

/**
 * Starts the dev server on 127.0.0.1:`port` (0 = any free port).
 * Resolves to `{ url, close }`; `url` ends with a slash.
 */
export async function startServer({ port = 5173, strictPort = false, host = "127.0.0.1" } = {}) {
  const server = await createServer({
    configFile: false,
    root: join(root, "web"),
    logLevel: "warn",
    clearScreen: false,
    server: {
      host,
      port,
      strictPort,
      // pkg/ sits beside web/, outside Vite's root.
      fs: { allow: [root] },
    },
    // wasm-bindgen's glue finds its .wasm through import.meta.url: serve it as is, unbundled.
    optimizeDeps: { exclude: ["tenure"] },
  });
  await server.listen();
  const url = server.resolvedUrls?.local?.[0];
  if (!url) throw new Error("vite started but reported no local URL");
  return { url, close: () => server.close() };
}
