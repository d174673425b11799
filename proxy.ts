// Next 16's request proxy (formerly middleware.ts): stamps the security headers on every page and
// API answer, and hands the per-request CSP nonce to rendering (Next reads it from the request's
// Content-Security-Policy header; the root layout reads x-nonce for its inline theme script).
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { hostProblem } from "@/lib/host-check";
import { createNonce, REQUEST_PATH_HEADER, securityHeaders } from "@/lib/security-headers";

export function proxy(request: NextRequest): NextResponse {
  // Before anything else, sign-in included: a request under a name Brokerdesk is not configured at.
  const misdirected = hostProblem(
    {
      host: request.headers.get("host"),
      forwardedHost: request.headers.get("x-forwarded-host"),
      path: request.nextUrl.pathname,
    },
    { origin: env.nextAuthUrl, simulator: env.mode === "simulator", trustProxy: env.trustProxy.kind !== "off" },
  );
  if (misdirected) {
    return new NextResponse(`${misdirected}\n`, {
      status: 421,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const nonce = createNonce();
  const https = env.nextAuthUrl.startsWith("https://") || request.headers.get("x-forwarded-proto") === "https";
  const headers = securityHeaders({ nonce, https, dev: env.nodeEnv === "development" });

  const response = rendersNothing(request)
    ? NextResponse.next()
    : NextResponse.next({ request: { headers: withNonce(request, nonce, headers["Content-Security-Policy"]!) } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * API routes render no HTML, so nothing reads the nonce from their request; they still answer with the
 * CSP and every other header below. Rewriting the request's headers costs Next a copy of all of them
 * on every call, which the proxy routes need not pay (overhead).
 */
function rendersNothing(request: NextRequest): boolean {
  return request.nextUrl.pathname.startsWith("/api/");
}

function withNonce(request: NextRequest, nonce: string, csp: string): Headers {
  const requestHeaders = new Headers(request.headers);
  // Overwrites whatever a client sent under these names, so the nonce is always ours.
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  // The page asked for, so a redirect to sign-in can come back to it (server/auth/session.ts).
  requestHeaders.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return requestHeaders;
}

export const config = {
  // Hashed build assets and public/'s icons and manifest are not documents; everything else (pages, RSC, API) is.
  matcher: [
    "/((?!_next/static|_next/image|favicon.ico|icon.svg|icon-192.png|icon-512.png|apple-touch-icon.png|manifest.webmanifest).*)",
  ],
};
