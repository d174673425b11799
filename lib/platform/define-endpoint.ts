// An operation of the platform, declared once as data. The client, the proxy, the simulator,
// forms, tables and the exporter all read these entries (ARCHITECTURE "One catalog drives everything").
import type * as z from "zod/mini";
import type { OperationFacts } from "./catalog/operations";

/**
 * What kind of account the key that makes the call belongs to (E9's riskUnitId rule depends on it), or
 * "read-only": a key that may only read (the platform answers 40014 to anything else).
 */
export type KeyRole = "broker-main" | "risk-unit" | "sub-account" | "read-only" | "other";

export type Paging<Data, Row> = {
  /** Request parameter that asks for older records. */
  cursorParam: "idLessThan";
  /** Where the next (older) cursor comes from, said in words for docs and the table. */
  cursorFrom: string;
  /** The cursor to pass for the next older page, or null when there is none. */
  nextCursor: (data: Data, limit: number) => string | null;
  rows: (data: Data) => Row[];
  /** Key of a row that identifies it (for tables and de-duplication). */
  rowId: (row: Row) => string;
  limit: { default: number; max: number };
  /** Longest startTime..endTime span one request may ask for (null = none stated). */
  maxSpanMs: number | null;
  /** How far back the platform keeps data (null = not stated). */
  retentionMs: number | null;
  /** Time of a row, in ms, for walking windows. */
  rowTime: (row: Row) => string;
};

/** An operation: its row of ./catalog/operations (`...OPERATIONS[id]`) with its schemas and paging. */
export type EndpointDef<
  Id extends string,
  Req extends z.ZodMiniType<Record<string, unknown>>,
  Res extends z.ZodMiniType,
  Row = unknown,
> = OperationFacts & {
  id: Id;
  request: Req;
  response: Res;
  paging: Paging<z.output<Res>, Row> | null;
  /** Rules that depend on the key making the call; return field → message. */
  keyRule?: (input: z.output<Req>, keyRole: KeyRole) => Record<string, string>;
  /** Retention of the data in words, where it is stated but not a paging concern (E7). */
  retentionNote?: string;
};

export function defineEndpoint<
  const Id extends string,
  Req extends z.ZodMiniType<Record<string, unknown>>,
  Res extends z.ZodMiniType,
  Row = unknown,
>(def: EndpointDef<Id, Req, Res, Row>): EndpointDef<Id, Req, Res, Row> {
  return Object.freeze(def);
}
