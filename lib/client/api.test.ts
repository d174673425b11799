// The browser's one JSON POST: what it sends, and that every failure is an ApiError carrying what the server
// said (the platform's `meaning` of a refusal included), never a silent success.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError, isTransient, platformRefusal, postJson } from "./api";

const replySchema = z.object({ ok: z.literal(true) });

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function refusalOf(p: Promise<unknown>): Promise<ApiError> {
  const e: unknown = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

afterEach(() => vi.unstubAllGlobals());

describe("[client][postJson]", () => {
  it("POSTs the body as JSON to the same origin and returns the parsed reply", async () => {
    const fetchMock = answer(200, { ok: true });
    await expect(postJson("/api/things", replySchema, { a: "1.5" })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith("/api/things", expect.objectContaining({
      method: "POST",
      cache: "no-store",
      body: '{"a":"1.5"}',
      headers: { "Content-Type": "application/json", Accept: "application/json" },
    }));
  });

  it("keeps the platform's refusal whole, its meaning included", async () => {
    const platform = { code: "40034", msg: "Parameter does not exist", httpStatus: 400, operation: "leverage.set", meaning: "Unknown symbol." };
    answer(400, { error: { code: "platform_error", message: "refused", platform } });
    const e = await refusalOf(postJson("/api/things", replySchema, {}));
    expect(e.status).toBe(400);
    expect(e.platform).toEqual(platform);
    expect(platformRefusal(e)).toEqual({ code: "40034", msg: "Parameter does not exist", meaning: "Unknown symbol." });
  });

  it("carries field errors and Retry-After", async () => {
    answer(422, { error: { code: "invalid", message: "bad", fieldErrors: { amount: ["too small"] } } }, { "Retry-After": "3" });
    const e = await refusalOf(postJson("/api/things", replySchema, {}));
    expect(e).toMatchObject({ status: 422, code: "invalid", fieldErrors: { amount: ["too small"] }, retryAfter: 3 });
  });

  it("turns an unexplained refusal and a malformed reply into errors, not data", async () => {
    answer(500, "nope");
    expect(await refusalOf(postJson("/api/things", replySchema, {}))).toMatchObject({ status: 500, code: "http_error" });
    answer(200, { ok: "yes" });
    expect(await refusalOf(postJson("/api/things", replySchema, {}))).toMatchObject({ status: 502, code: "malformed" });
  });

  it("says Brokerdesk could not be reached when fetch fails", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("connection refused"))));
    expect(await refusalOf(postJson("/api/things", replySchema, {}))).toMatchObject({ status: 0, code: "network" });
  });
});

describe("[client][isTransient]", () => {
  it("retries a lost connection once, never a refusal, and never a timeout the server already waited out", () => {
    expect(isTransient(new ApiError(0, "network", "unreachable"))).toBe(true);
    expect(isTransient(new ApiError(502, "platform_network", "reset"))).toBe(true);
    expect(isTransient(new ApiError(504, "platform_timeout", "no answer in 10000 ms"))).toBe(false);
    expect(isTransient(new ApiError(502, "platform_error", "50000 System busy"))).toBe(false);
    expect(isTransient(new Error("not an ApiError"))).toBe(false);
  });
});
