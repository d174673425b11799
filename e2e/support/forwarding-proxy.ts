// A reverse proxy in front of a Brokerdesk instance, as a load balancer would stand, for the client-IP
// tests. It connects to the instance from `localAddress` (any 127.x address is
// loopback on Linux), so the instance can be told to trust that address alone (TRUST_PROXY), and it
// forwards X-Forwarded-For as received, or the caller's own address when none was sent: a test plays the
// client whose address a real proxy would write there.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ForwardingProxy = { baseURL: string; stop(): Promise<void> };

export async function startForwardingProxy(target: string, localAddress: string): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, localAddress } as http.AgentOptions);
  const server = http.createServer((req, res) => {
    const headers = {
      ...req.headers,
      host: upstream.host,
      "x-forwarded-for": req.headers["x-forwarded-for"] ?? req.socket.remoteAddress ?? "",
    };
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    up.on("error", (e) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    stop: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
