// Where to send someone after sign-in. A callbackUrl is resolved the way a browser
// resolves it (WHATWG URL parsing, which drops tabs and newlines and reads "\" as "/", so "/\t/host"
// and "/\\host" are the other host they look like to a browser) against this app's own origin, and only
// a target on that origin is kept. What comes back is the path, query and fragment, percent-encoded as
// the URL parser wrote them: always a valid Location header, never a network-path ("//host") reference.

import "server-only";

const ORIGIN = "http://brokerdesk.invalid";

export function safeCallbackPath(value: unknown): string {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== "string" || v.length > 2048) return "/";
  let url: URL;
  try {
    url = new URL(v, ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== ORIGIN) return "/";
  // "/.//host" parses to the path "//host" on our origin; written back bare it would name another host.
  const path = url.pathname.replace(/^\/{2,}/, "/");
  return `${path}${url.search}${url.hash}`;
}

/** A callback target that is not the sign-in page itself (a signed-in user sent there would loop). */
export function afterSignIn(value: unknown): string {
  const target = safeCallbackPath(value);
  return target === "/login" || target.startsWith("/login?") || target.startsWith("/login#") ? "/" : target;
}

/** next-auth's redirect callback: only this origin, resolved as above; anything else goes home. */
export function redirectOnThisSite({ url, baseUrl }: { url: string; baseUrl: string }): string {
  const base = new URL(baseUrl);
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    return `${base.origin}/`;
  }
  if (target.origin !== base.origin) return `${base.origin}/`;
  return `${base.origin}${safeCallbackPath(`${target.pathname}${target.search}${target.hash}`)}`;
}
