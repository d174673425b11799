import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { canRetry, describeError, errorText } from "./api";

const refusal = (code: string, msg: string, meaning?: string) =>
  new ApiError(502, "platform_error", msg, {
    platform: { code, msg, operation: "deposits.list", ...(meaning ? { meaning } : {}) },
  });

describe("[words] errors as staff read them", () => {
  it("keeps the platform's code and message, says what it means, and never names the operation", () => {
    const said = describeError(refusal("40034", "Parameter uid does not exist", "An identifier was not found."));
    expect(said.title).toBe("Platform error 40034: Parameter uid does not exist");
    expect(said.detail).toBe("The platform refused the request. An identifier was not found.");
    expect(`${said.title} ${said.detail}`).not.toMatch(/deposits\.list|was refused by the platform|\(sim\)/);
  });

  it("says a failure in one sentence with the platform's code, as the approval queue shows it", () => {
    expect(errorText(refusal("43012", "Insufficient balance"))).toBe(
      "Platform error 43012: Insufficient balance. The platform refused the request.",
    );
    expect(errorText(new ApiError(409, "already_decided", "Already decided by another lead"))).toBe(
      "Request failed (HTTP 409). Already decided by another lead",
    );
    expect(errorText(new Error("boom"))).toBe("Something went wrong in the page. boom");
    expect(errorText(new ApiError(409, "case_changed", "1 new alert since you opened this case: alert 7"))).toBe(
      "The case has changed since you opened it. 1 new alert since you opened this case: alert 7",
    );
  });

  it("says a refused field by its words, not its name", () => {
    const e = new ApiError(422, "invalid_input", "Invalid input", {
      fieldErrors: { subaccountName: ["subaccountName is required"], amount: ["must be positive"] },
    });
    expect(describeError(e).detail).toBe("Name is required; Amount: must be positive");
  });

  it("offers Retry only where asking again can change the answer", () => {
    expect(canRetry(refusal("40034", "Parameter uid does not exist"))).toBe(false);
    expect(canRetry(refusal("43012", "Insufficient balance"))).toBe(false);
    expect(canRetry(new ApiError(404, "not_found", "No such withdrawal"))).toBe(false);
    expect(canRetry(new ApiError(422, "invalid_input", "Invalid input"))).toBe(false);
    expect(canRetry(refusal("50000", "System busy"))).toBe(true);
    expect(canRetry(refusal("429", "Too Many Requests"))).toBe(true);
    expect(canRetry(new ApiError(429, "rate_budget_exhausted", "Brokerdesk is busy"))).toBe(true);
    expect(canRetry(new ApiError(504, "platform_timeout", "timeout"))).toBe(true);
    expect(canRetry(new ApiError(0, "network", "offline"))).toBe(true);
  });
});
