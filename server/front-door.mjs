// The front door: the one process that owns Brokerdesk's listening socket (`npm start`, `npm run serve`).
// It is `next start` plus the two things `next start` cannot do:
// - in simulator mode it listens on loopback unless HOST says otherwise (and then warns), since the demo
//   staff accounts' password is published;
// - it decides who the client is. Next.js keeps an X-Forwarded-For the client sent and only adds the
//   socket's address when there is none, so anyone could claim any address (and lock it out, or hide in
//   the audit log). Here the socket's address is the client unless TRUST_PROXY says the peer is a proxy;
//   the answer replaces X-Forwarded-For (one address) before Next.js sees the request, and forwarding
//   headers from an untrusted peer are dropped. server/http/request.ts and server/auth/options.ts read it.
// Plain JavaScript, like lib/env.js, so it runs with node alone.
import http from "node:http";
import { BlockList, isIP } from "node:net";
import { pathToFileURL } from "node:url";

/** `::ffff:10.0.0.1` → `10.0.0.1`; anything that is not an IP address → null. */
function normalAddress(value) {
  const v = (value ?? "").trim().replace(/^\[(.*)\]$/, "$1");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
  const address = mapped ? mapped[1] : v;
  return isIP(address) ? address : null;
}

/** @param {import("../lib/env.js").TrustProxy} trust */
function trustedPeers(trust) {
  if (trust.kind !== "cidrs") return null;
  const list = new BlockList();
  for (const c of trust.cidrs) {
    const [address, bits] = c.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/**
 * Who sent a request: the socket's address, or, through trusted proxies, the address they forwarded.
 * `forwardedFor` is the X-Forwarded-For header as received (client first, each proxy appending).
 * @param {string | undefined} peer the socket's remote address
 * @param {string | undefined} forwardedFor
 * @param {import("../lib/env.js").TrustProxy} trust
 * @param {BlockList | null} [peers] trustedPeers(trust), built once by the caller
 * @returns {{ client: string | null, viaProxy: boolean }} viaProxy: the peer is a trusted proxy
 */
export function resolveClient(peer, forwardedFor, trust, peers = trustedPeers(trust)) {
  const socket = normalAddress(peer);
  if (trust.kind === "off" || !socket) return { client: socket, viaProxy: false };
  // Nearest first: the socket, then the addresses each proxy appended, walking back towards the client.
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const isTrusted = (address, depth) =>
    trust.kind === "hops" ? depth < trust.hops : peers.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
  if (!isTrusted(socket, 0)) return { client: socket, viaProxy: false };
  let client = socket;
  for (let i = 0; i < hops.length; i++) {
    const address = normalAddress(hops[i]);
    // A malformed entry ends the walk: the last proxy that handed it on is all that is known.
    if (!address) break;
    client = address;
    if (!isTrusted(address, i + 1)) break;
  }
  return { client, viaProxy: true };
}

const FORWARDING = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

/**
 * Rewrites a request's forwarding headers in place: X-Forwarded-For becomes the one resolved client
 * address; Host/proto/port hints survive only from a trusted proxy (Next.js then fills them in itself).
 * @param {http.IncomingMessage} req
 * @param {import("../lib/env.js").TrustProxy} trust
 * @param {BlockList | null} [peers]
 */
export function normaliseForwarding(req, trust, peers = trustedPeers(trust)) {
  const xff = req.headers["x-forwarded-for"];
  const { client, viaProxy } = resolveClient(
    req.socket.remoteAddress,
    Array.isArray(xff) ? xff.join(",") : xff,
    trust,
    peers,
  );
  for (const name of FORWARDING) {
    if (!viaProxy || name === "x-forwarded-for" || name === "x-real-ip" || name === "forwarded")
      delete req.headers[name];
  }
  if (client) req.headers["x-forwarded-for"] = client;
}

/** Starts Brokerdesk from the build (`next build` first) on env.host:env.port. */
export async function serve() {
  const { env, markNodeServer } = await import("../lib/env.js");
  // As the `next` command does before Next.js loads anything: instrumentation.ts's register() reads them.
  markNodeServer();
  const { default: next } = await import("next");
  const app = next({ dev: false, hostname: env.host, port: env.port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  await app.prepare();
  const peers = trustedPeers(env.trustProxy);
  const server = http.createServer((req, res) => {
    normaliseForwarding(req, env.trustProxy, peers);
    void handle(req, res);
  });
  // As `next start --keepAliveTimeout 65000`: longer than a load balancer's idle timeout (60 s), so the
  // server never closes a connection the balancer is about to reuse; headers may take a little longer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.port, env.host, () => resolve(undefined));
  });
  const shown = env.host.includes(":") ? `[${env.host}]` : env.host;
  const proxies =
    env.trustProxy.kind === "off"
      ? "no proxy trusted"
      : "trusting " +
        (env.trustProxy.kind === "hops" ? `${env.trustProxy.hops} proxy hop(s)` : env.trustProxy.cidrs.join(", "));
  process.stdout.write(
    `Brokerdesk ${env.version} (${env.mode} mode) listening on http://${shown}:${env.port}, ${proxies}\n`,
  );
  if (env.mode === "simulator") {
    const loopback = ["127.0.0.1", "::1", "localhost"].includes(env.host);
    process.stdout.write(
      loopback
        ? "Simulator mode: loopback only, since the demo staff accounts' password is public (HOST changes it).\n"
        : `WARNING: simulator mode on ${shown}, reachable from other machines, with demo staff accounts whose ` +
            `password is public.\n`,
    );
  }
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve().catch((e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
