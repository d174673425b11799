import "server-only";
// Where a webhook may go in live mode: never to a private, loopback, link-local or unique-local address (a webhook
// would otherwise let an admin make Brokerdesk post into its own network). Checked on the address, however it is
// named: a numeric host at once, a name by resolving it, at adding (./webhook-endpoints.ts) and again at every
// connection (the HTTP agents' `lookup`, below), so a name that resolved to a public address when it was added and
// to a private one later (DNS rebinding) is refused at sending too. Simulator mode sends to loopback (the demo).
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  // Protocol assignments, benchmarking, multicast and the reserved block (broadcast among them): none is a
  // receiver on the internet, and some reach the machine's own network.
  ["192.0.0.0", 24],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  // NAT64 and 6to4 carry an IPv4 address inside: refused whole rather than judged by the address they carry.
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
] as const)
  blocked.addSubnet(net, bits, "ipv6");

/** Whether an address (v4, v6, or v4 mapped in v6) is private, loopback, link-local or unique-local. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  const family = isIP(ip);
  if (family === 0) return false;
  return blocked.check(ip, family === 4 ? "ipv4" : "ipv6");
}

export class PrivateDestinationError extends Error {
  readonly code = "EPRIVATEDEST";
  constructor(host: string, address: string) {
    super(`refused: ${host} is a private or loopback address (${address}) and live mode sends only to public ones`);
    this.name = "PrivateDestinationError";
  }
}

type Resolve = (host: string, options: LookupAllOptions, cb: (e: Error | null, a: LookupAddress[]) => void) => void;
const systemResolve: Resolve = (host, options, cb) => dnsLookup(host, options, cb);

/**
 * The private address a host is or resolves to (the first), or null when every one is public. A name that does not
 * resolve throws (its DNS error).
 */
export async function privateAddressOf(host: string, resolve: Resolve = systemResolve): Promise<string | null> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return isPrivateAddress(bare) ? bare : null;
  const addresses = await new Promise<LookupAddress[]>((ok, fail) =>
    resolve(bare, { all: true }, (e, a) => (e ? fail(e) : ok(a))),
  );
  return addresses.find((a) => isPrivateAddress(a.address))?.address ?? null;
}

/** A `lookup` for net.connect that resolves as the system does and refuses a private answer (no connection made). */
export const publicOnlyLookup: LookupFunction = (host, options: LookupOptions, callback) => {
  dnsLookup(host, { ...options, all: true }, (e, addresses) => {
    if (e) return callback(e, "", 0);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateDestinationError(host, bad.address), "", 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

const agents = {
  live: { http: new HttpAgent({ lookup: publicOnlyLookup }), https: new HttpsAgent({ lookup: publicOnlyLookup }) },
  simulator: { http: new HttpAgent(), https: new HttpsAgent() },
};

/** The agent a delivery connects through: in live mode, one whose every connection is to a public address. */
export function agentFor(protocol: string, mode: "live" | "simulator") {
  const a = agents[mode];
  return protocol === "https:" ? a.https : a.http;
}
