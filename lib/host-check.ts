// DNS rebinding: a web page whose name an attacker points at 127.0.0.1 (or at an address inside the
// network) reaches Brokerdesk from the victim's browser with its own name as the Host, and with an Origin
// equal to that Host it passes a same-origin check. So a request is answered only when its Host is the
// one Brokerdesk is configured at (NEXTAUTH_URL), or, in simulator mode, a loopback address written as an
// address (a name cannot be rebound when there is no name) or the name `localhost`, which browsers resolve to
// loopback themselves and never ask DNS for. Behind a trusted proxy (TRUST_PROXY) the
// proxy's X-Forwarded-Host is what the browser used; server/front-door.mjs drops it from anyone else.
// The health check and the metrics scrape answer any Host: a load balancer or Prometheus asks by address,
// and neither reads a session nor changes anything.

export type HostRule = { origin: string; simulator: boolean; trustProxy: boolean };

const ANY_HOST_PATHS = ["/api/health", "/metrics"];

/** 127.0.0.0/8 or ::1, written as an address (with or without a port; IPv6 in brackets). */
function isLoopbackAddress(host: string): boolean {
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(host);
  if (v6) return v6[1] === "::1" || /^(0{0,4}:){7}0{0,3}1$/i.test(v6[1]!) || /^::ffff:127\./i.test(v6[1]!);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?::\d{1,5})?$/.exec(host);
  return v4 !== null && v4.slice(1).every((o) => Number(o) <= 255) && v4[1] === "127";
}

/** The host:port of a URL as a Host header writes it (the default port left out). */
function hostOf(url: string): string {
  return new URL(url).host.toLowerCase();
}

/**
 * Why a request must not be answered, or null. `host` is the Host header, `forwardedHost` X-Forwarded-Host
 * (only read when a trusted proxy may have set it), `path` the path asked for.
 */
export function hostProblem(
  req: { host: string | null; forwardedHost: string | null; path: string },
  rule: HostRule,
): string | null {
  if (ANY_HOST_PATHS.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return null;
  const forwarded = rule.trustProxy ? req.forwardedHost?.split(",")[0]?.trim() : undefined;
  const host = (forwarded || req.host || "").trim().toLowerCase();
  if (!host) return "The request names no host";
  if (host === hostOf(rule.origin)) return null;
  if (rule.simulator && (isLoopbackAddress(host) || /^localhost(?::\d{1,5})?$/.test(host))) return null;
  return `This Brokerdesk answers at ${new URL(rule.origin).origin} only, not at ${host}`;
}
