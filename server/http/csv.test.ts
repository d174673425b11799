// The CSV answer streams: the header and the first chunk before the answer, the rest as the reader pulls;
// a failure before the first chunk is the request's own error, after it the body errors (no short file
// passed off as whole); a reader that goes away ends the rows' walk.
import { describe, expect, it } from "vitest";
import { csvRowLine } from "@/lib/csv";
import { csvBody, csvResponse } from "./csv";

function counted(total: number, failAt: number | null = null) {
  const seen = { produced: 0, finished: false };
  async function* rows() {
    try {
      for (let i = 0; i < total; i++) {
        if (i === failAt) throw new Error("the database went away");
        seen.produced++;
        yield [String(i), "9007199254740993.123456789", "=cmd()"];
      }
    } finally {
      seen.finished = true;
    }
  }
  return { seen, rows: rows() };
}

describe("[csv][stream] CSV answers", () => {
  it("[csv][stream] the first chunk leaves before the rows are all read; the whole file is the encoder's lines in order", async () => {
    const { seen, rows } = counted(100_000);
    const res = await csvResponse(csvBody("t", ["id", "amount", "note"], rows));
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(seen.produced).toBeLessThan(100_000);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks++;
      // Back-pressure: the producer is never far ahead of what was read.
      expect(seen.produced - text.split("\r\n").length).toBeLessThan(30_000);
      text += decoder.decode(value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(3);
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("id,amount,note");
    expect(lines.length).toBe(100_002);
    expect(lines[1]).toBe(
      csvRowLine(["id", "amount", "note"], ["0", "9007199254740993.123456789", "=cmd()"]).trimEnd(),
    );
    // The id column's digits as a text formula (a spreadsheet keeps them), the amount as written, the note defused.
    expect(lines[100_000]).toBe(`"=""99999""",9007199254740993.123456789,'=cmd()`);
    expect(seen.finished).toBe(true);
  });

  it("[csv][stream] a failure before the first chunk is the request's error; after it, the body errors", async () => {
    await expect(csvResponse(csvBody("t", ["id"], counted(10, 3).rows))).rejects.toThrow("the database went away");
    const late = counted(200_000, 150_000);
    const res = await csvResponse(csvBody("t", ["id", "amount", "note"], late.rows));
    await expect(res.text()).rejects.toThrow();
    expect(late.seen.produced).toBe(150_000);
  });

  it("[csv][stream] a reader that goes away ends the rows' walk", async () => {
    const { seen, rows } = counted(1_000_000);
    const res = await csvResponse(csvBody("t", ["id", "amount", "note"], rows));
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(seen.finished).toBe(true);
    expect(seen.produced).toBeLessThan(100_000);
  });
});
