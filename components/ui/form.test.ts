import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { applyServerErrors, formFailure, placeFieldErrors, platformFieldOf } from "./form";

const FIELDS = ["uid", "riskUnitId"] as const;

function recorder() {
  const calls: { name: string; message: string; focus: boolean | undefined }[] = [];
  const setError = (name: string, e: { message: string }, o?: { shouldFocus: boolean }) =>
    void calls.push({ name, message: e.message, focus: o?.shouldFocus });
  return { calls, setError };
}

const invalid = (fieldErrors: Record<string, string[]>) =>
  new ApiError(400, "invalid_input", "Invalid input", { fieldErrors });
const refused = new ApiError(502, "platform_error", "The platform refused", {
  platform: { code: "49001", msg: "uid already bound", operation: "riskUnits.bind" },
});

describe("placeFieldErrors", () => {
  it("puts each named field's messages under it, in the form's order, and only the first takes the focus", () => {
    const { calls, setError } = recorder();
    const placed = placeFieldErrors(
      invalid({ riskUnitId: ["must be digits"], uid: ["is required", "and numeric"] }),
      FIELDS,
      setError,
    );
    expect(placed).toBe(true);
    expect(calls).toEqual([
      { name: "uid", message: "is required and numeric", focus: true },
      { name: "riskUnitId", message: "must be digits", focus: false },
    ]);
  });

  it("places nothing for a field the form does not have, a refusal, or an error that is no ApiError", () => {
    const { calls, setError } = recorder();
    expect(placeFieldErrors(invalid({ other: ["x"] }), FIELDS, setError)).toBe(false);
    expect(placeFieldErrors(refused, FIELDS, setError)).toBe(false);
    expect(placeFieldErrors(new Error("boom"), FIELDS, setError)).toBe(false);
    expect(calls).toEqual([]);
  });

  it("words each message with say", () => {
    const { calls, setError } = recorder();
    placeFieldErrors(invalid({ uid: ["bad"] }), FIELDS, setError, (m) => `UID ${m}`);
    expect(calls[0]?.message).toBe("UID bad");
  });
});

describe("formFailure", () => {
  it("says nothing while nothing failed, nor for an answer only about the form's fields", () => {
    expect(formFailure(null, FIELDS)).toEqual({ refusal: null, other: null });
    expect(formFailure(invalid({ uid: ["bad"] }), FIELDS)).toEqual({ refusal: null, other: null });
  });

  it("gives the platform's refusal with its code and message, and no other failure beside it", () => {
    expect(formFailure(refused, FIELDS)).toEqual({
      refusal: { code: "49001", msg: "uid already bound", meaning: null },
      other: null,
    });
  });

  it("says any other failure for the whole form, including field errors about fields it does not show", () => {
    expect(formFailure(invalid({ other: ["x"] }), FIELDS).other?.title).toBeTruthy();
    expect(formFailure(new ApiError(0, "network", "offline"), FIELDS).other).not.toBeNull();
  });
});

describe("applyServerErrors", () => {
  it("places the fields' errors in staff's words and leaves nothing to say when all were placed", () => {
    const { calls, setError } = recorder();
    expect(applyServerErrors(invalid({ uid: ["uid is required"] }), FIELDS, setError)).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.focus).toBe(true);
  });

  it("finds the form's field a platform refusal names, in any of its templates, and nothing else", () => {
    const refusal = (code: string, msg: string) =>
      new ApiError(502, "platform_error", "The platform refused", {
        platform: { code, msg, operation: "leverage.set" },
      });
    const fields = ["symbol", "leverage", "holdSide"] as const;
    expect(platformFieldOf(refusal("40019", "Parameter holdSide cannot be empty"), fields)).toBe("holdSide");
    expect(platformFieldOf(refusal("40020", "Parameter leverage error"), fields)).toBe("leverage");
    expect(platformFieldOf(refusal("40034", "Parameter symbol does not exist"), fields)).toBe("symbol");
    expect(platformFieldOf(refusal("40020", "Parameter riskUnitId error"), fields)).toBeNull();
    expect(platformFieldOf(refusal("40017", "Parameter verification failed"), fields)).toBeNull();
    expect(platformFieldOf(refusal("43012", "Insufficient balance"), fields)).toBeNull();
    expect(platformFieldOf(invalid({ leverage: ["too high"] }), fields)).toBeNull();
  });
});
