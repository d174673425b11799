import type { APIResponse } from "@playwright/test";
import { expect, test } from "./support/test";
import { signInApi } from "./support/staff";

// Every page of the app (signed in, so each renders rather than redirecting to /login).
const PAGES = [
  "/",
  "/login",
  "/deposits",
  "/assets",
  "/rebates",
  "/spot/plan-orders",
  "/spot/fills",
  "/market/trades",
  "/futures/oi-limits",
  "/sub-accounts",
  "/withdrawals",
  "/risk-units",
  "/leverage",
  "/audit",
  "/admin/users",
];
const API_ROUTES = ["/api/health", "/api/auth/csrf", "/api/auth/session", "/api/audit", "/api/sub-accounts"];

function scriptSrc(csp: string): string {
  return (
    csp
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("script-src ")) ?? ""
  );
}

function nonceOf(res: APIResponse): string | null {
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc(res.headers()["content-security-policy"] ?? ""))?.[1] ?? null;
}

function expectSecurityHeaders(res: APIResponse, path: string): void {
  const h = res.headers();
  const csp = h["content-security-policy"] ?? "";
  expect(csp, `${path} CSP`).toContain("default-src 'self'");
  expect(csp, `${path} CSP`).toContain("frame-ancestors 'none'");
  expect(csp, `${path} CSP`).toContain("object-src 'none'");
  expect(scriptSrc(csp), `${path} script-src`).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(scriptSrc(csp), `${path} script-src`).toContain("'strict-dynamic'");
  expect(scriptSrc(csp), `${path} script-src`).not.toContain("'unsafe-inline'");
  expect(h["x-content-type-options"], path).toBe("nosniff");
  expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  expect(h["x-frame-options"], path).toBe("DENY");
  expect(h["permissions-policy"], path).toBeTruthy();
  // The e2e server is plain http: HSTS there would be ignored at best.
  expect(h["strict-transport-security"], path).toBeUndefined();
}

test("[security][headers] every page answers with CSP (fresh nonce), nosniff, Referrer-Policy, frame denial and no HSTS over http", async ({
  request,
}) => {
  // /login while signed out (signed in, it redirects home); every other page signed in.
  const login = await request.get("/login", { maxRedirects: 0 });
  expect(login.status()).toBe(200);
  expectSecurityHeaders(login, "/login");
  expect(await login.text()).toContain(`nonce="${nonceOf(login)}"`);

  await signInApi(request, "admin");
  for (const path of PAGES.filter((p) => p !== "/login")) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
    expectSecurityHeaders(res, path);
    // The page's own scripts carry the header's nonce (Next stamps them; the theme script via the layout).
    const nonce = nonceOf(res);
    expect(await res.text(), path).toContain(`nonce="${nonce}"`);
  }
});

test("[security][headers] API routes carry the same headers", async ({ request, playwright, baseURL }) => {
  await signInApi(request, "admin");
  for (const path of API_ROUTES) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(500);
    expectSecurityHeaders(res, path);
  }
  // Also on a refusal (no session), not only on success.
  const anonymous = await playwright.request.newContext({ baseURL });
  const refused = await anonymous.get("/api/audit");
  expect(refused.status()).toBe(401);
  expectSecurityHeaders(refused, "/api/audit (anonymous)");
  await anonymous.dispose();
});

test("[security][nonce] each request gets a different nonce", async ({ request }) => {
  for (const path of ["/login", "/api/health"]) {
    const first = nonceOf(await request.get(path));
    const second = nonceOf(await request.get(path));
    expect(first, path).toBeTruthy();
    expect(second, path).toBeTruthy();
    expect(first, path).not.toBe(second);
  }
});

test("[security][cookies] the session cookie set at sign-in is HttpOnly and SameSite=Lax (not Secure over http)", async ({
  request,
}) => {
  const csrfRes = await request.get("/api/auth/csrf");
  const csrfCookie = csrfRes
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value)
    .find((v) => v.includes("csrf-token="));
  expect(csrfCookie).toBeTruthy();
  expect(csrfCookie).toMatch(/;\s*HttpOnly/i);
  expect(csrfCookie).toMatch(/;\s*SameSite=Lax/i);

  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: "broker@demo.brokerdesk", password: "brokerdesk-demo", json: "true" },
    maxRedirects: 0,
  });
  const cookies = res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value);
  const session = cookies.find((v) => /^(__Secure-)?next-auth\.session-token=/.test(v));
  expect(session, cookies.join("\n")).toBeTruthy();
  expect(session).toMatch(/;\s*HttpOnly/i);
  expect(session).toMatch(/;\s*SameSite=Lax/i);
  expect(session).toMatch(/;\s*Path=\//i);
  // NEXTAUTH_URL is http in this run; over https createAuthOptions turns on useSecureCookies.
  expect(session).not.toMatch(/;\s*Secure/i);
});

test("[security][sign-out] a session cookie kept from before sign-out reads nothing and is not re-issued", async ({
  playwright,
  baseURL,
}) => {
  const ctx = await playwright.request.newContext({ baseURL });
  await signInApi(ctx, "compliance");
  const kept = (await ctx.storageState()).cookies.find((c) => c.name === "next-auth.session-token");
  expect(kept?.value).toBeTruthy();
  expect((await ctx.get("/api/audit?limit=1")).status()).toBe(200);

  const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const out = await ctx.post("/api/auth/signout", { form: { csrfToken, json: "true" }, maxRedirects: 0 });
  expect([200, 302]).toContain(out.status());

  // Someone who copied the cookie before sign-out replays it.
  const replay = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { cookie: `next-auth.session-token=${kept!.value}` },
  });
  expect((await replay.get("/api/audit?limit=1")).status()).toBe(401);
  const session = await replay.get("/api/auth/session");
  expect(await session.json()).toEqual({});
  const reissued = session
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie" && /^next-auth\.session-token=[^;]+/.test(h.value));
  expect(reissued).toEqual([]);
  const page = await replay.get("/audit", { maxRedirects: 0 });
  expect(page.status()).toBe(307);
  await replay.dispose();
  await ctx.dispose();
});

test("[security][cookies] a stray cookie named like the session cookie does not turn a valid session into 401", async ({
  playwright,
  baseURL,
}) => {
  const ctx = await playwright.request.newContext({ baseURL });
  await signInApi(ctx, "compliance");
  const token = (await ctx.storageState()).cookies.find((c) => c.name === "next-auth.session-token")!.value;
  const stray = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      cookie: `next-auth.session-token=${token}; next-auth.session-tokenx=junk; next-auth.session-token.7=junk`,
    },
  });
  expect((await stray.get("/api/audit?limit=1")).status()).toBe(200);
  await stray.dispose();
  await ctx.dispose();
});
