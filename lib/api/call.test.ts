// The browser's one call to Brokerdesk's API: what it sends for each kind of entry, and that every failure is
// an ApiError carrying what the server said (the platform's `meaning` of a refusal included), never a silent
// success.
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { isTransient, platformRefusal } from "@/lib/client/api";
import { callResource, lazyResource, resourceKey, resourceUrl } from "./call";
import { defineResource } from "./define-resource";
import { ApiError } from "./errors";

const reply = z.object({ ok: z.literal(true) });
const post = defineResource({
  id: "things.approve",
  method: "POST",
  path: "/api/things/{id}/approve",
  summary: "test",
  permission: "withdrawals.approve",
  input: z.object({ a: z.string() }),
  output: reply,
  errors: [],
});
const list = defineResource({
  id: "things.list",
  method: "GET",
  path: "/api/things",
  summary: "test",
  permission: "withdrawals.read",
  input: z.object({ coin: z.optional(z.string()), cursor: z.optional(z.string()), from: z.optional(z.string()) }),
  output: reply,
  errors: [],
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchMock = vi.fn<typeof fetch>(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function refusalOf(p: Promise<unknown>): Promise<ApiError> {
  const e: unknown = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

afterEach(() => vi.unstubAllGlobals());

describe("[api][callResource]", () => {
  it("POSTs the input as JSON to the entry's path, its parameters encoded, and returns the parsed reply", async () => {
    const fetchMock = answer(200, { ok: true });
    await expect(callResource(post, { params: { id: "a/b c" }, input: { a: "1.5" } })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/things/a%2Fb%20c/approve",
      expect.objectContaining({
        method: "POST",
        cache: "no-store",
        body: '{"a":"1.5"}',
        headers: { "Content-Type": "application/json", Accept: "application/json" },
      }),
    );
  });

  it("GETs with the input as the query, leaving out what is empty", async () => {
    const fetchMock = answer(200, { ok: true });
    await callResource(list, { input: { coin: "USDT", cursor: "", from: undefined } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/things?coin=USDT");
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({
      method: "GET",
      body: undefined,
      headers: { Accept: "application/json" },
    });
    expect(resourceUrl(list)).toBe("/api/things");
    expect(resourceKey(list, { input: { coin: "USDT" } })).toEqual(["things.list", { coin: "USDT" }]);
    // Another key's answer is another account's: never the same cache entry.
    expect(resourceKey(list, { input: { coin: "USDT" }, platformKey: "desk01" })).not.toEqual(
      resourceKey(list, { input: { coin: "USDT" } }),
    );
  });

  it("keeps the platform's refusal whole, its meaning included", async () => {
    const platform = {
      code: "40034",
      msg: "Parameter does not exist",
      httpStatus: 400,
      operation: "leverage.set",
      meaning: "Unknown symbol.",
    };
    answer(502, { error: { code: "platform_error", message: "refused", platform } });
    const e = await refusalOf(callResource(post, { params: { id: "1" }, input: { a: "1" } }));
    expect(e.status).toBe(502);
    expect(e.platform).toEqual(platform);
    expect(platformRefusal(e)).toEqual({ code: "40034", msg: "Parameter does not exist", meaning: "Unknown symbol." });
  });

  it("carries field errors and Retry-After", async () => {
    answer(
      422,
      { error: { code: "invalid_input", message: "bad", fieldErrors: { amount: ["too small"] } } },
      { "Retry-After": "3" },
    );
    const e = await refusalOf(callResource(post, { params: { id: "1" }, input: { a: "1" } }));
    expect(e).toMatchObject({
      status: 422,
      code: "invalid_input",
      fieldErrors: { amount: ["too small"] },
      retryAfter: 3,
    });
  });

  it("turns an unexplained refusal and a malformed reply into errors, not data", async () => {
    answer(500, "nope");
    expect(await refusalOf(callResource(list, { input: {} }))).toMatchObject({ status: 500, code: "http_error" });
    answer(200, { ok: "yes" });
    expect(await refusalOf(callResource(list, { input: {} }))).toMatchObject({ status: 502, code: "malformed" });
  });

  it("keeps the words of a code it does not know (a newer server), as http_error", async () => {
    answer(409, { error: { code: "something_new", message: "Explained in words" } });
    expect(await refusalOf(callResource(list, { input: {} }))).toMatchObject({
      status: 409,
      code: "http_error",
      message: "Explained in words",
    });
  });

  it("says Brokerdesk could not be reached when fetch fails, and passes an abort through", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("connection refused"))),
    );
    expect(await refusalOf(callResource(list, { input: {} }))).toMatchObject({ status: 0, code: "network" });
    const abort = new AbortController();
    abort.abort();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new DOMException("aborted", "AbortError"))),
    );
    await expect(callResource(list, { input: {}, signal: abort.signal })).rejects.toThrow(DOMException);
  });

  it("refuses to build a path with a parameter missing", () => {
    expect(() => resourceUrl(post, {})).toThrow(/"id" is missing/);
  });
});

describe("[api][lazyResource] a page's route whose entry loads with the first call", () => {
  it("sends from the route, parses with the loaded entry's schema, and loads the entry once", async () => {
    const load = vi.fn(async () => list);
    const lazy = lazyResource({ id: "things.list", method: "GET", path: "/api/things" }, load);
    const fetchMock = answer(200, { ok: true });
    await expect(callResource(lazy, { input: { coin: "BTC" } })).resolves.toEqual({ ok: true });
    await expect(callResource(lazy, { input: {} })).resolves.toEqual({ ok: true });
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(["/api/things?coin=BTC", "/api/things"]);
    expect(load).toHaveBeenCalledTimes(1);
    answer(200, { ok: false });
    expect((await refusalOf(callResource(lazy, { input: {} }))).code).toBe("malformed");
  });

  it("a load that fails is the call failing as unreachable, and the next call loads again", async () => {
    const load = vi
      .fn<() => Promise<typeof list>>()
      .mockRejectedValueOnce(new Error("Failed to load chunk"))
      .mockResolvedValue(list);
    const lazy = lazyResource({ id: "things.list", method: "GET", path: "/api/things" }, load);
    answer(200, { ok: true });
    const e = await refusalOf(callResource(lazy, { input: {} }));
    expect([e.code, e.status]).toEqual(["network", 0]);
    expect(e.message).toContain("Failed to load chunk");
    await expect(callResource(lazy, { input: {} })).resolves.toEqual({ ok: true });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe("[api][isTransient]", () => {
  it("retries a lost connection once, never a refusal, and never a timeout the server already waited out", () => {
    expect(isTransient(new ApiError(0, "network", "unreachable"))).toBe(true);
    expect(isTransient(new ApiError(502, "platform_network", "reset"))).toBe(true);
    expect(isTransient(new ApiError(504, "platform_timeout", "no answer in 10000 ms"))).toBe(false);
    expect(isTransient(new ApiError(502, "platform_error", "50000 System busy"))).toBe(false);
    expect(isTransient(new Error("not an ApiError"))).toBe(false);
  });
});
