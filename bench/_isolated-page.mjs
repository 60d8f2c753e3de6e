// The playground benches' page: a built playground (`npm run build:web` output in `outDir`)
// served on 127.0.0.1 cross-origin isolated, so `performance.now()` has microsecond
// resolution for the frame figures, and a headless Chromium to load it
// (CHROMIUM_PATH, by default Debian's /usr/bin/chromium).
import { join } from "node:path";
import { chromium } from "playwright-core";
import { preview } from "vite";
import { root } from "../scripts/lib/run.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ISOLATED = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

/**
 * Starts the server and the browser. Returns `{ url, browser, close }`: the page's URL, the
 * launched browser, and `close()`, which stops both (safe to call once either failed to start).
 */
export async function openIsolatedPlayground(outDir) {
  let server;
  let browser;
  const close = async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.httpServer.close(resolve) : resolve()));
  };
  try {
    server = await preview({
      configFile: false,
      root: join(root, "web"),
      logLevel: "warn",
      build: { outDir },
      preview: { host: "127.0.0.1", port: 0, headers: ISOLATED },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--headless", "--disable-gpu"] });
  } catch (error) {
    await close();
    throw error;
  }
  return { url: server.resolvedUrls.local[0], browser, close };
}
