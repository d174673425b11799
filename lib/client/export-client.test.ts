// The browser's reading of the export stream, as pure functions: lines split across chunks, events
// parsed, the file assembled, and every way a stream can fail throwing rather than yielding a short file.
import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { csvLine } from "@/lib/csv";
import { ExportAssembler, parseExportLine, splitLines, type ExportEvent, type ExportProgress } from "./export-client";

const start: ExportEvent = {
  type: "start",
  jobId: "j1",
  windowsTotal: 2,
  columns: ["orderId", "amount", "cTime", "cTimeUtc"],
  filename: "deposits.list-2026-11-14_2026-11-21.csv",
};
const rowsA: ExportEvent = {
  type: "rows",
  csv: '3,1.5,1700000000002,2023-11-14T22:13:20.002Z\r\n2,"1,0",1700000000001,2023-11-14T22:13:20.001Z\r\n',
  count: 2,
};
const rowsB: ExportEvent = { type: "rows", csv: "1,-0.0000007,1700000000000,2023-11-14T22:13:20.000Z\r\n", count: 1 };

function lines(events: ExportEvent[]): string {
  return events.map((e) => JSON.stringify(e)).join("\n") + "\n";
}

/** Feeds a stream's text in chunks of `size` characters, as the network might cut it. */
function feed(text: string, size: number, assembler: ExportAssembler) {
  let pending = "";
  for (let i = 0; i < text.length; i += size) {
    const { lines: whole, rest } = splitLines(pending, text.slice(i, i + size));
    pending = rest;
    for (const l of whole) assembler.accept(parseExportLine(l));
  }
  if (pending.trim()) assembler.accept(parseExportLine(pending));
}

describe("[exports][client] lines", () => {
  it("splits into whole lines and keeps the unfinished rest, however the chunks fall", () => {
    expect(splitLines("", '{"a":1}\n{"b"')).toEqual({ lines: ['{"a":1}'], rest: '{"b"' });
    expect(splitLines('{"b"', ":2}\n\n")).toEqual({ lines: ['{"b":2}'], rest: "" });
    expect(splitLines("", "no newline yet")).toEqual({ lines: [], rest: "no newline yet" });
  });

  it("parses each event and refuses a line that is not one", () => {
    expect(parseExportLine(JSON.stringify(start))).toEqual(start);
    expect(
      parseExportLine('{"type":"progress","records":5,"windowsDone":1,"windowsTotal":2,"etaMs":null}'),
    ).toMatchObject({ etaMs: null });
    expect(() => parseExportLine("{not json")).toThrow(ApiError);
    expect(() => parseExportLine('{"type":"rows","csv":1}')).toThrow(/unknown shape/);
  });

  it("quotes a header cell only when it must", () => {
    expect(csvLine(["a", "feeDetail.totalFee", 'x,"y"'])).toBe('a,feeDetail.totalFee,"x,""y"""\r\n');
  });
});

describe("[exports][client] assembling the file", () => {
  const done: ExportEvent = { type: "done", records: 3 };
  const progress: ExportEvent = { type: "progress", records: 2, windowsDone: 1, windowsTotal: 2, etaMs: 1500 };

  for (const size of [1, 7, 64, 100_000]) {
    it(`builds header + rows into a CSV blob and reports progress (chunks of ${size})`, async () => {
      const seen: ExportProgress[] = [];
      const a = new ExportAssembler((p) => seen.push(p));
      feed(lines([start, rowsA, progress, rowsB, done]), size, a);
      const { blob, filename, records } = a.result();
      expect(filename).toBe("deposits.list-2026-11-14_2026-11-21.csv");
      expect(records).toBe(3);
      expect(blob.type).toBe("text/csv;charset=utf-8");
      const text = await blob.text();
      expect(text.split("\r\n")).toEqual([
        "orderId,amount,cTime,cTimeUtc",
        "3,1.5,1700000000002,2023-11-14T22:13:20.002Z",
        '2,"1,0",1700000000001,2023-11-14T22:13:20.001Z',
        "1,-0.0000007,1700000000000,2023-11-14T22:13:20.000Z",
        "",
      ]);
      expect(seen).toEqual([
        { records: 0, windowsDone: 0, windowsTotal: 2, etaMs: null },
        { records: 2, windowsDone: 1, windowsTotal: 2, etaMs: 1500 },
      ]);
    });
  }

  it("throws the platform's code and message from an error line, after rows had arrived", () => {
    const a = new ExportAssembler();
    const error: ExportEvent = {
      type: "error",
      status: 502,
      code: "platform_error",
      message: "The platform refused deposits.list: 50000 System busy",
      platform: { code: "50000", msg: "System busy", httpStatus: 500, operation: "deposits.list" },
    };
    let thrown: unknown;
    try {
      feed(lines([start, rowsA, error]), 16, a);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      status: 502,
      code: "platform_error",
      platform: { code: "50000", msg: "System busy" },
    });
  });

  it("never yields a short file: a stream cut before done, or rows that do not add up, throw", () => {
    const cut = new ExportAssembler();
    feed(lines([start, rowsA]), 10, cut);
    expect(() => cut.result()).toThrow(/ended before the export was complete/);

    const short = new ExportAssembler();
    expect(() => feed(lines([start, rowsA, done]), 10, short)).toThrow(/said 3 records but 2 arrived/);

    const headless = new ExportAssembler();
    expect(() => feed(lines([rowsA]), 10, headless)).toThrow(/did not begin with its header/);
  });
});
