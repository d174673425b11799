import { describe, expect, it } from "vitest";
import { fieldWords, staffMessage } from "./words";

describe("[issue 16][words] messages in staff's words", () => {
  it("names fields as their forms do", () => {
    expect(fieldWords("subaccountName")).toBe("Name");
    expect(fieldWords("feeCoin")).toBe("Fee coin");
    expect(fieldWords("amount")).toBe("Amount");
  });
  it("turns a schema's message into staff's words, with the form's label when there is one", () => {
    expect(staffMessage("subaccountName is required")).toBe("Name is required");
    expect(staffMessage("subaccountName is required", "Name (e-mail form)")).toBe("Name is required");
    expect(staffMessage("amount must be a decimal number such as 12.5", "Amount")).toBe("Amount must be a decimal number such as 12.5");
    expect(staffMessage("userId or orderId is required (they must not both be empty)")).toBe("Sub-account UID or Record ID is required (they must not both be empty)");
    expect(staffMessage("endTime must not be before startTime")).toBe("End must not be before Start");
  });
  it("keeps the platform's quoted words", () => {
    expect(staffMessage("marginCoin: the platform refused it (40020 Parameter marginCoin error)")).toBe("Margin coin: the platform refused it (40020 Parameter marginCoin error)");
  });
  it("leaves sentences that name no field as they are", () => {
    expect(staffMessage("A sub-account named desk01@x.com already exists")).toBe("A sub-account named desk01@x.com already exists");
    expect(staffMessage("Choose a coin")).toBe("Choose a coin");
  });
});
