// The response headers every page and API answer carries (web security). Pure, so the
// proxy (proxy.ts) and the unit test share one definition; the proxy supplies the request facts.

export type SecurityHeaderInput = {
  /** Fresh per request; Next.js reads it back out of the request's CSP and stamps its own scripts. */
  nonce: string;
  /** Served over https (NEXTAUTH_URL or x-forwarded-proto): only then is HSTS meaningful and safe. */
  https: boolean;
  /** `next dev` rebuilds server error stacks with eval; production never needs it. */
  dev: boolean;
};

export function contentSecurityPolicy({ nonce, dev }: Pick<SecurityHeaderInput, "nonce" | "dev">): string {
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonced bootstrap loads are trusted, so no host list to maintain.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React style props and Next's injected styles are inline; a style nonce would void 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    // data: and blob: for inline icons and the export download's object URL.
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}

export function securityHeaders(input: SecurityHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(input),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // Legacy twin of frame-ancestors 'none' for browsers that predate CSP level 2.
    "X-Frame-Options": "DENY",
    // The back office uses none of these; deny them so injected content cannot ask either.
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  };
  // Over plain http a browser ignores HSTS anyway, and sending it from a dev box would pin localhost.
  if (input.https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** 128 random bits, base64: unguessable per request, and a valid CSP nonce-source. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The page a request asked for (path and query), set by proxy.ts for server pages: sign-in comes back to it. */
export const REQUEST_PATH_HEADER = "x-brokerdesk-path";
