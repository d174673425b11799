import "server-only";
// What the list parsers hand the import: one entry per listed address, and the file's publish date.

export const LIST_FORMATS = ["sdn", "csv", "ftm"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export type ListEntry = {
  /** The normalised form (lib/screening-address.ts), the lookup key. */
  address: string;
  /** The address as the file wrote it. */
  listedAs: string;
  /** The asset or chain the file lists it under, upper case ("XBT", "ETH", "USDT", "TRX"). */
  asset: string;
  /** The party it belongs to, by name where the file says it cheaply, and by the file's own reference. */
  partyName: string | null;
  partyRef: string | null;
  reason: string | null;
};

export type ParseSink = {
  entry(e: ListEntry): void;
  published(at: Date): void;
};

/** A push parser: text in as it arrives (synchronous; entries go to the sink), then the end of the file. */
export type ChunkParser = { write(text: string): void; end(): void };

/** Where a file stopped parsing: a line (and column), and the element being read for XML. */
export type ParseWhere = { line?: number; column?: number; element?: string; byte?: number };

export class ListParseError extends Error {
  constructor(
    readonly reason: string,
    readonly where: ParseWhere,
  ) {
    const at = [
      where.line !== undefined ? `line ${where.line}` : null,
      where.column !== undefined ? `column ${where.column}` : null,
      where.byte !== undefined ? `byte ${where.byte}` : null,
      where.element ? `in ${where.element}` : null,
    ].filter(Boolean);
    super(at.length ? `${at.join(", ")}: ${reason}` : reason);
    this.name = "ListParseError";
  }
}
