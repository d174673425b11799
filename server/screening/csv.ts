import "server-only";
// The broker's own block list as CSV: a header naming the columns address, chain (or asset) and reason (in any
// order, any case; other columns are ignored), then one address a line. Quoted fields as RFC 4180, on one line.
import { normaliseAddress } from "@/lib/screening-address";
import { lineParser } from "./lines";
import { ListParseError, type ChunkParser, type ParseSink } from "./types";

/** One CSV line's fields; throws (with the column) on an unbalanced quote. */
export function csvFields(line: string, n: number): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let v = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new ListParseError("a quoted field is not closed", { line: n, column: i });
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      if (i < line.length && line[i] !== ",")
        throw new ListParseError("text after a quoted field", { line: n, column: i + 1 });
    } else {
      const c = line.indexOf(",", i);
      out.push(line.slice(i, c < 0 ? line.length : c));
      i = c < 0 ? line.length : c;
    }
    if (i >= line.length) return out;
    i++; // the comma
  }
}

export function csvParser(sink: ParseSink): ChunkParser {
  let columns: { address: number; asset: number; reason: number } | null = null;
  return lineParser((line, n) => {
    if (n === 1) line = line.replace(/^\uFEFF/, "");
    if (line.trim() === "") return;
    const fields = csvFields(line, n).map((f) => f.trim());
    if (!columns) {
      const names = fields.map((f) => f.toLowerCase());
      const at = (...want: string[]) => names.findIndex((f) => want.includes(f));
      columns = { address: at("address"), asset: at("chain", "asset"), reason: at("reason") };
      const missing = Object.entries({ address: "address", asset: "chain or asset", reason: "reason" })
        .filter(([k]) => columns![k as keyof typeof columns] < 0)
        .map(([, v]) => v);
      if (missing.length)
        throw new ListParseError(`the header has no column ${missing.join(", no column ")}`, { line: n });
      return;
    }
    const address = fields[columns.address] ?? "";
    const asset = (fields[columns.asset] ?? "").toUpperCase();
    if (!address) throw new ListParseError("the address is empty", { line: n });
    if (/\s/.test(address)) throw new ListParseError("the address has white space in it", { line: n });
    if (!/^[A-Z0-9._-]{1,20}$/.test(asset))
      throw new ListParseError("the chain or asset is empty or not a symbol (A–Z, 0–9, . _ -)", { line: n });
    sink.entry({
      address: normaliseAddress(address),
      listedAs: address,
      asset,
      partyName: null,
      partyRef: null,
      reason: fields[columns.reason] || null,
    });
  });
}
