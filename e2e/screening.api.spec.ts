// Sanctions and block lists over real HTTP: compliance uploads the SDN fixture as the body of
// POST /api/screening/versions (application/octet-stream, streamed to the parser) and the simulator's sanctioned
// source is then listed; bad input is refused on its field (the query's by the entry's schema, the file's saying
// where it failed) with no version written; a role without monitoring.write is refused, and a JSON body is not an
// upload. The list is one of its own ("e2e-upload"), so no other spec's lists change.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test";
import { sameOrigin, signInApi } from "./support/staff";

const SDN = readFileSync(path.resolve("server/screening/fixtures/sdn-advanced.xml"));
/** The simulator's sanctioned source (server/simulator/data/sanctioned.ts, server-only), which the fixture lists. */
const SANCTIONED_SOURCE = "TGWASS3j87E2Y3D3bLi7G2VErdUYbqpkLz";
const LIST = "e2e-upload";

test.describe.configure({ mode: "serial" });

const upload = (request: APIRequestContext, baseURL: string | undefined, query: string, body: Buffer | string) =>
  request.post(`/api/screening/versions?${query}`, {
    headers: { ...sameOrigin(baseURL), "Content-Type": "application/octet-stream" },
    data: body,
  });

const versionsOf = async (request: APIRequestContext) =>
  ((await (await request.get("/api/screening/versions")).json()) as { versions: { id: number; list: string }[] })
    .versions;

type Refusal = { error: { code: string; fieldErrors?: Record<string, string[]> } };

test("[screening][upload] compliance imports the SDN fixture; the sanctioned source is listed", async ({
  request,
  baseURL,
}) => {
  await signInApi(request, "compliance");
  const res = await upload(request, baseURL, `list=${LIST}&fileName=sdn_advanced.xml`, SDN);
  expect(res.status(), await res.text()).toBe(200);
  const v = (await res.json()) as { id: number; list: string; active: boolean; counts: Record<string, number> };
  expect([v.list, v.active, v.counts]).toEqual([LIST, true, { XBT: 2, ETH: 1, USDT: 1, TRX: 1 }]);
  const hit = await request.get(`/api/screening/lookup?address=${SANCTIONED_SOURCE}`);
  const answer = (await hit.json()) as { match: boolean; matches: { list: string; asset: string }[] };
  expect(answer.match).toBe(true);
  expect(answer.matches.filter((m) => m.list === LIST).map((m) => m.asset)).toEqual(["USDT", "TRX"]);
});

test("[screening][upload] bad input is refused on its field and writes no version", async ({ request, baseURL }) => {
  await signInApi(request, "compliance");
  const before = await versionsOf(request);
  const cases: [string, Buffer | string, string][] = [
    ["format=xml", SDN, "format"],
    ["list=Not%20A%20Name", SDN, "list"],
    ["publishedAt=2026-02-30", SDN, "publishedAt"],
    [`list=${LIST}`, SDN.subarray(0, 3000), "file"],
    [`list=${LIST}&format=csv`, "address,reason\nT1,x\n", "file"],
    [`list=${LIST}`, "", "file"],
  ];
  for (const [query, body, field] of cases) {
    const res = await upload(request, baseURL, query, body);
    const refusal = (await res.json()) as Refusal;
    expect([res.status(), refusal.error.code, Object.keys(refusal.error.fieldErrors ?? {})], query).toEqual([
      422,
      "invalid_input",
      [field],
    ]);
  }
  const lookup = await request.get("/api/screening/lookup?address=a%20b");
  expect(((await lookup.json()) as Refusal).error.fieldErrors?.address).toBeTruthy();
  expect(await versionsOf(request)).toEqual(before);
});

test("[screening][upload] a broker may not import; a JSON body is not an upload", async ({ request, baseURL }) => {
  await signInApi(request, "broker");
  expect((await upload(request, baseURL, `list=${LIST}`, SDN)).status()).toBe(403);
  await signInApi(request, "compliance");
  const json = await request.post(`/api/screening/versions?list=${LIST}`, {
    headers: sameOrigin(baseURL),
    data: { file: "x" },
  });
  expect(json.status()).toBe(403);
});
