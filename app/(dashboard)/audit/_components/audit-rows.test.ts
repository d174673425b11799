import { describe, expect, it } from "vitest";
import { summarize, targetHref, targetUid } from "./audit-rows";

const w = { clientOid: "bd-1", state: "rejected", reason: "client payout", rejectReason: null as string | null };

describe("[audit][rows] each row's own reason and its target's page", () => {
  it("a reject shows the lead's reason, not the requester's; an approve shows its state", () => {
    expect(summarize({ action: "withdrawals.reject", params: { reason: "not whitelisted" }, detail: null })).toBe(
      "not whitelisted",
    );
    expect(
      summarize({ action: "withdrawals.reject", params: null, detail: { ...w, rejectReason: "not whitelisted" } }),
    ).toBe("rejected · not whitelisted");
    expect(summarize({ action: "withdrawals.approve", params: null, detail: { ...w, state: "submitted" } })).toBe(
      "sent, no answer yet",
    );
    // Said as the ledger says it: the platform accepted the order, nothing more is known.
    expect(summarize({ action: "withdrawals.approve", params: null, detail: { ...w, state: "confirmed" } })).toBe(
      "accepted by the platform",
    );
    expect(summarize({ action: "withdrawals.request", params: null, detail: { ...w, state: "requested" } })).toBe(
      "requested · client payout",
    );
    expect(summarize({ action: "withdrawals.request", params: null, detail: { ...w, state: "pending" } })).toBe(
      "pending · client payout",
    );
    expect(summarize({ action: "request.refused", params: null, detail: { status: 403, reason: "no" } })).toBe(
      "403 · no",
    );
    expect(summarize({ action: "riskUnits.bind", params: null, detail: { code: "49001", msg: "bound" } })).toBe(
      "49001 bound",
    );
  });
  it("links withdrawals, sub-accounts, staff and bindings", () => {
    const id = "0b7c9a52-5f0e-4d47-9a57-2f1f0c1e9a11";
    expect(targetHref({ action: "withdrawals.approve", target: `withdrawal:${id}` })).toBe(`/withdrawals/${id}`);
    expect(targetHref({ action: "subaccounts.add", target: "subaccount:123456" })).toBe("/sub-accounts/123456");
    expect(targetHref({ action: "users.disable", target: "u-1" })).toBe("/admin/users?user=u-1");
    expect(targetHref({ action: "riskUnits.bind", target: "bind 11 → 22" })).toBe("/risk-units?uid=11");
    expect(targetHref({ action: "request.refused", target: "/api/audit" })).toBeNull();
    expect(targetUid("bind 11 → 22")).toBe("11");
    expect(targetHref({ action: "leverage.set", target: "platform-key:sub5481892133" })).toBe(
      "/sub-accounts/5481892133",
    );
    expect(targetUid("platform-key:sub5481892133")).toBe("5481892133");
    expect(targetHref({ action: "leverage.set", target: "platform-key:main" })).toBeNull();
  });
});
