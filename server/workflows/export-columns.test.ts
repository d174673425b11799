// CSV for exports: RFC 4180 quoting, formula-injection guard, exact decimal strings, UTC columns, and
// column lists that leave no field of a platform row out.
import { describe, expect, it } from "vitest";
import { catalog } from "@/lib/platform/catalog";
import samplesJson from "@/lib/platform/fixtures/spec-samples.json";
import { CSV_EOL, csvCell } from "@/lib/csv";
import { EXPORTABLE_OPERATIONS } from "@/lib/platform/export-plan";
import { EXPORT_COLUMNS, csvHeader, csvRows, isoUtc, leafPaths } from "./export-columns";

const samples = samplesJson as unknown as Record<string, string[]>;

/** The rows of the operation's first published sample, parsed by the catalog as the client does. */
function sampleRows(id: (typeof EXPORTABLE_OPERATIONS)[number]): unknown[] {
  const op = catalog[id];
  const raw = JSON.parse(samples[id]?.[0] ?? "null") as { data: unknown };
  const data = op.response.parse(raw.data);
  if (!op.paging) throw new Error(`${id} is not paged`);
  return (op.paging.rows as (d: unknown) => unknown[])(data);
}

/** Minimal RFC 4180 reader, to check that what we write reads back cell for cell. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

describe("[exports][csv] cells", () => {
  it.each([
    // Quoted when holding a quote, comma or line break, quotes doubled (RFC 4180).
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\rhere", '"cr\rhere"'],
    ["", ""],
    // Formula injection neutralised with a leading apostrophe.
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["-", "'-"],
  ])("the value %j is the cell %j", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it("keeps signed decimals exactly as sent (they are numbers, not formulas)", () => {
    for (const v of [
      "-0.0000007",
      "+12.5",
      "-1",
      "0.00000001",
      "123456789012345678901234567890.123456789",
      "-1e-7",
      "-.5",
    ]) {
      expect(csvCell(v)).toBe(v);
    }
  });

  it("renders ms timestamps as ISO UTC, and nothing for blanks", () => {
    expect(isoUtc("1695865232579")).toBe("2023-09-28T01:40:32.579Z");
    expect(isoUtc("")).toBe("");
    expect(isoUtc("soon")).toBe("");
  });
});

describe("[exports][csv] rows", () => {
  it("[fills.list] flattens feeDetail and keeps the fee's string, with ms and UTC time columns", () => {
    const cols = EXPORT_COLUMNS["fills.list"];
    const header = csvHeader(cols);
    expect(header).toBe(
      "tradeId,orderId,userId,symbol,side,orderType,priceAvg,size,amount,tradeScope,feeDetail.feeCoin,feeDetail.totalFee," +
        "feeDetail.deduction,feeDetail.totalDeductionFee,cTime,cTimeUtc,uTime,uTimeUtc" +
        CSV_EOL,
    );
    const [row] = parseCsv(csvRows(cols, sampleRows("fills.list")));
    const byName = Object.fromEntries(cols.map((c, i) => [c.name, row?.[i]]));
    expect(byName["feeDetail.totalFee"]).toBe("-0.0000007");
    expect(byName["size"]).toBe("0.0007");
    expect(byName["cTime"]).toBe("1695865232579");
    expect(byName["cTimeUtc"]).toBe("2023-09-28T01:40:32.579Z");
    // The sample's masked userId ("*****") is text, not a formula, and stays as sent.
    expect(byName["userId"]).toMatch(/^\*+$/);
  });

  it("writes one CRLF-terminated line per row that reads back cell for cell", () => {
    const cols = EXPORT_COLUMNS["market.trades"];
    const rows = [
      { symbol: "BTCUSDT", tradeId: "1", side: "buy", price: "64000.10", size: "0.001", ts: "1700000000000" },
      { symbol: "=EVIL()", tradeId: "2", side: "sell", price: "1,5", size: 'a"b', ts: "" },
    ];
    const text = csvRows(cols, rows);
    expect(text.endsWith(CSV_EOL)).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['="1"', "BTCUSDT", "buy", "64000.10", "0.001", "1700000000000", "2023-11-14T22:13:20.000Z"],
      ['="2"', "'=EVIL()", "sell", "1,5", 'a"b', "", ""],
    ]);
  });

  it("[exports][csv] writes all-digit IDs as text formulas, so a spreadsheet keeps every digit of a 16-digit ID", () => {
    const cols = EXPORT_COLUMNS["deposits.list"];
    const row = {
      orderId: "1234567890123456789",
      userId: "8888666612345678",
      coin: "USDT",
      amount: "100.5",
      txId: "0xabc",
      cTime: "1700000000000",
    };
    const line = csvRows(cols, [row]);
    expect(line.startsWith('"=""1234567890123456789""","=""8888666612345678""",USDT,100.5,')).toBe(true);
    const [cells] = parseCsv(line);
    const byName = Object.fromEntries(cols.map((c, i) => [c.name, cells?.[i]]));
    // Text IDs that are not all digits, amounts and timestamps stay ordinary cells.
    expect(byName["txId"]).toBe("0xabc");
    expect(byName["amount"]).toBe("100.5");
    expect(byName["cTime"]).toBe("1700000000000");
  });

  it("every exportable operation's column list covers every field of its rows, and only those", () => {
    for (const id of EXPORTABLE_OPERATIONS) {
      const rows = sampleRows(id);
      expect(rows.length, id).toBeGreaterThan(0);
      const fields = new Set(rows.flatMap((r) => leafPaths(r)));
      const named = new Set(EXPORT_COLUMNS[id].filter((c) => !c.utc).map((c) => c.name));
      expect([...named].sort(), id).toEqual([...fields].sort());
      expect(csvHeader(EXPORT_COLUMNS[id]).split(",").length, id).toBe(EXPORT_COLUMNS[id].length);
    }
  });

  it("every paged operation of the catalog is exportable", () => {
    const paged = Object.values(catalog)
      .filter((op) => op.paging !== null)
      .map((op) => op.id)
      .sort();
    expect(paged).toEqual([...EXPORTABLE_OPERATIONS].sort());
  });
});
