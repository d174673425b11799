import "server-only";
import net from "node:net";

/** A loopback port nothing listens on right now (for tools and tests that start servers). The e2e
 * suites, which cannot import server modules, keep their own copy in e2e/support/processes.ts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
