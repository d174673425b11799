// The /screening routes' input and workflow: an upload streamed from a real Request's body into the database
// (PGlite, and PostgreSQL with TEST_DATABASE_URL); bad input refused on its field (the query by the entry's
// schema, as the route wrapper parses it; the file by the workflow) with nothing written.
import { describe, expect, it } from "vitest";
import { DomainError, fieldErrorsOf } from "@/lib/api/errors";
import { importListSchema, lookupSchema } from "@/lib/api/screening";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { fixture, SANCTIONED_SOURCE } from "@/server/screening/testing";
import { staffSession } from "@/server/testing";
import { importUploadedList, lookupAddress, screeningVersions } from "./screening-lists";

const compliance = staffSession("compliance", "carla");

/** A POST whose body streams `text` in small chunks, as a browser's upload arrives. */
function upload(text: string, headers: Record<string, string> = {}): Request {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 512) c.enqueue(bytes.subarray(i, i + 512));
      c.close();
    },
  });
  return new Request("http://brokerdesk.test/api/screening/versions", {
    method: "POST",
    headers: { "content-type": "application/octet-stream", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

const refusedOn = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DomainError);
  return (e as DomainError).fieldErrors ?? {};
};

const queryProblems = (raw: Record<string, string>) => {
  const r = importListSchema.safeParse(raw);
  return r.success ? null : fieldErrorsOf(r.error);
};

describe("[screening][route input] the import's and the lookup's query", () => {
  it("[screening][route input] refuses each bad field by name, and reads the good ones", () => {
    expect(queryProblems({ format: "xml" })).toEqual({ format: ["format is one of sdn, csv, ftm"] });
    expect(Object.keys(queryProblems({ list: "Own List" }) ?? {})).toEqual(["list"]);
    expect(Object.keys(queryProblems({ publishedAt: "2026-02-30" }) ?? {})).toEqual(["publishedAt"]);
    expect(Object.keys(queryProblems({ publishedAt: "27/11/2026" }) ?? {})).toEqual(["publishedAt"]);
    expect(Object.keys(queryProblems({ fileName: "../etc/passwd" }) ?? {})).toEqual(["fileName"]);
    expect(importListSchema.parse({ format: "", list: "own-blocklist", publishedAt: "2026-11-27" })).toEqual({
      list: "own-blocklist",
      publishedAt: new Date("2026-11-27T00:00:00Z"),
    });
    const lookup = (raw: Record<string, string>) => {
      const r = lookupSchema.safeParse(raw);
      return r.success ? null : Object.keys(fieldErrorsOf(r.error));
    };
    expect([
      lookup({}),
      lookup({ address: " " }),
      lookup({ address: "a b" }),
      lookup({ address: "x", at: "y" }),
    ]).toEqual([["address"], ["address"], ["address"], ["at"]]);
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][upload] on $engine", (engine) => {
  const t = databaseTestBed(engine);

  it("[screening][upload] an uploaded SDN file becomes the active version, imported by the person", async () => {
    const v = await importUploadedList(t.db, compliance, null, upload(fixture("sdn-advanced.xml")), {
      fileName: "sdn_advanced.xml",
    });
    expect([v.list, v.importedBy, v.addressCount, v.active, v.fileName]).toEqual([
      "ofac-sdn",
      "carla@brokerdesk.test",
      5,
      true,
      "sdn_advanced.xml",
    ]);
    expect((await screeningVersions(t.db)).versions.map((x) => x.id)).toEqual([v.id]);
    expect((await lookupAddress(t.db, { address: SANCTIONED_SOURCE })).match).toBe(true);
  });

  it("[screening][upload] a bad, empty or oversized file is refused on its field; nothing is written", async () => {
    const before = (await screeningVersions(t.db)).versions;
    const text = fixture("sdn-advanced.xml");
    const cut = await refusedOn(importUploadedList(t.db, compliance, null, upload(text.slice(0, 2500)), {}));
    expect(cut.file?.[0]).toMatch(/^file does not parse: line \d+, column \d+, in Sanctions\/.*: unclosed tag/);
    const csv = await refusedOn(
      importUploadedList(t.db, compliance, null, upload("address,reason\nT1,x\n"), { format: "csv" }),
    );
    expect(csv).toEqual({ file: ["file does not parse: line 1: the header has no column chain or asset"] });
    const wrongFormat = await refusedOn(importUploadedList(t.db, compliance, null, upload(text), { format: "ftm" }));
    expect(wrongFormat.file?.[0]).toMatch(/^file does not parse: line 1: not JSON/);
    expect(await refusedOn(importUploadedList(t.db, compliance, null, upload(""), {}))).toEqual({
      file: ["file does not parse: the file is empty"],
    });
    const declared = await refusedOn(
      importUploadedList(t.db, compliance, null, upload(text, { "content-length": String(300 * 2 ** 20) }), {}),
    );
    expect(Object.keys(declared)).toEqual(["file"]);
    const streamed = await refusedOn(importUploadedList(t.db, compliance, null, upload(text), {}, 4096));
    expect(streamed.file?.[0]).toMatch(/^file must be at most/);
    expect((await screeningVersions(t.db)).versions).toEqual(before);
    const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM screening_list_entries");
    expect(rows[0]!.n).toBe(5);
  });
});
