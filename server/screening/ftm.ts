import "server-only";
// OpenSanctions' FollowTheMoney entities as JSON lines: every CryptoWallet entity is listed, one entry per
// `properties.publicKey`, under `properties.currencySymbol` (else "UNKNOWN"). Its `holder` is an entity ID in
// the flat export, or the holder entity itself in the nested one (then its caption or first name is kept).
// Entities of other schemas are read past.
import { normaliseAddress } from "@/lib/screening-address";
import { lineParser } from "./lines";
import { ListParseError, type ChunkParser, type ParseSink } from "./types";

type Holder = string | { id?: unknown; caption?: unknown; properties?: { name?: unknown } };
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : typeof v === "string" ? [v] : [];

export function ftmParser(sink: ParseSink): ChunkParser {
  return lineParser((line, n) => {
    if (line.trim() === "") return;
    let entity: { id?: unknown; schema?: unknown; properties?: Record<string, unknown>; datasets?: unknown };
    try {
      entity = JSON.parse(line) as typeof entity;
    } catch (e) {
      throw new ListParseError(`not JSON: ${e instanceof Error ? e.message : String(e)}`, { line: n });
    }
    if (typeof entity !== "object" || entity === null || typeof entity.schema !== "string")
      throw new ListParseError("not a FollowTheMoney entity (no schema)", { line: n });
    if (entity.schema !== "CryptoWallet") return;
    const props = entity.properties ?? {};
    const keys = strings(props.publicKey);
    if (keys.length === 0) throw new ListParseError("a CryptoWallet without a publicKey", { line: n });
    const asset = (strings(props.currencySymbol)[0] ?? "UNKNOWN").trim().toUpperCase();
    const holder = (Array.isArray(props.holder) ? props.holder[0] : props.holder) as Holder | undefined;
    const partyRef = typeof holder === "string" ? holder : typeof holder?.id === "string" ? holder.id : null;
    const partyName =
      holder && typeof holder === "object"
        ? ((typeof holder.caption === "string" ? holder.caption : strings(holder.properties?.name)[0]) ?? null)
        : null;
    const reason = [...strings(props.topics), ...strings(entity.datasets)].join(", ") || null;
    for (const key of keys) {
      const listedAs = key.trim();
      if (!listedAs) throw new ListParseError("an empty publicKey", { line: n });
      sink.entry({ address: normaliseAddress(listedAs), listedAs, asset, partyName, partyRef, reason });
    }
  });
}
