// Free TCP ports on 127.0.0.1, found by binding port 0 and closing again.
import { createServer } from "node:net";

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `start(port...)` with `count` fresh ports, again with new ports if the server could not
 * bind (another process took a port between the probe and the start).
 */
export async function withFreePorts(count, start, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const ports = [];
    while (ports.length < count) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    try {
      return await start(...ports);
    } catch (err) {
      const busy = /address already in use|EADDRINUSE|bind/i.test(err.message);
      if (!busy || attempt >= attempts) throw err;
    }
  }
}
