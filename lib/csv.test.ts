import { describe, expect, it } from "vitest";
import { csvRowLine, isIdColumn } from "./csv";
import { LEDGER_DEPOSIT_CSV_COLUMNS } from "./api/ledger";
import { WITHDRAWAL_CSV_COLUMNS } from "./api/withdrawals/ledger";

describe("[csv][ids] identifier columns", () => {
  it("keeps an all-digit address or tag as text, as it does an ID: an internal transfer's address is a UID", () => {
    for (const name of ["id", "orderId", "subUid", "clientOid", "address", "fromAddress", "toAddress", "tag"])
      expect(isIdColumn(name), name).toBe(true);
    for (const name of ["amount", "fee", "coin", "chain", "status", "cTime", "confirm"])
      expect(isIdColumn(name), name).toBe(false);
    expect(
      csvRowLine(["fromAddress", "toAddress", "amount"], ["5128176762", "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", "1.5"]),
    ).toBe(`"=""5128176762""",TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE,1.5\r\n`);
  });

  it("writes the ledgers' own files so: their identifier, address and tag columns are all kept as text", () => {
    expect(WITHDRAWAL_CSV_COLUMNS.filter(isIdColumn)).toEqual([
      "id",
      "clientOid",
      "subUid",
      "address",
      "tag",
      "platformOrderId",
    ]);
    expect(LEDGER_DEPOSIT_CSV_COLUMNS.filter(isIdColumn)).toEqual([
      "orderId",
      "subUid",
      "fromAddress",
      "toAddress",
      "txId",
    ]);
  });
});
