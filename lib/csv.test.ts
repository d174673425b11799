import { describe, expect, it } from "vitest";
import { csvRowLine, isIdColumn } from "./csv";

describe("[csv][ids] identifier columns", () => {
  it("keeps an all-digit address or tag as text, as it does an ID: an internal transfer's address is a UID", () => {
    for (const name of ["id", "orderId", "subUid", "clientOid", "address", "fromAddress", "toAddress", "tag"]) expect(isIdColumn(name), name).toBe(true);
    for (const name of ["amount", "fee", "coin", "chain", "status", "cTime", "confirm"]) expect(isIdColumn(name), name).toBe(false);
    expect(csvRowLine(["fromAddress", "toAddress", "amount"], ["5128176762", "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", "1.5"])).toBe(
      `"=""5128176762""",TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE,1.5\r\n`,
    );
  });
});
