// `npm start`: build if needed (incremental), then serve the playground and print its URL.
// Installs node_modules first on a fresh clone; PORT overrides the default 5173.
import { ensureNodeModules } from "./lib/ensure.mjs";

try {
  ensureNodeModules();
  const { build } = await import("./build.mjs");
  build();
  const { startServer } = await import("./serve.mjs");
  const port = Number(process.env.PORT ?? 5173);
  const { url } = await startServer({ port });
  console.log(`\nTenure playground: ${url}\n(Ctrl-C to stop)`);
} catch (err) {
  console.error(`npm start failed: ${err.message}`);
  process.exit(1);
}
