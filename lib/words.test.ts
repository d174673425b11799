import { describe, expect, it } from "vitest";
import { fieldWords, staffMessage } from "./words";

describe("[issue 16][words] messages in staff's words", () => {
  it.each([
    ["subaccountName", "Name"],
    ["feeCoin", "Fee coin"],
    ["amount", "Amount"],
  ])("names the field %j as its form does: %j", (field, words) => {
    expect(fieldWords(field)).toBe(words);
  });

  it.each([
    // A schema's message in staff's words, with the form's label when there is one.
    ["subaccountName is required", undefined, "Name is required"],
    ["subaccountName is required", "Name (e-mail form)", "Name is required"],
    ["amount must be a decimal number such as 12.5", "Amount", "Amount must be a decimal number such as 12.5"],
    ["userId or orderId is required (they must not both be empty)", undefined, "Sub-account UID or Record ID is required (they must not both be empty)"],
    ["endTime must not be before startTime", undefined, "End must not be before Start"],
    // The platform's quoted words are kept.
    ["marginCoin: the platform refused it (40020 Parameter marginCoin error)", undefined, "Margin coin: the platform refused it (40020 Parameter marginCoin error)"],
    // Sentences that name no field are left as they are.
    ["A sub-account named desk01@x.com already exists", undefined, "A sub-account named desk01@x.com already exists"],
    ["Choose a coin", undefined, "Choose a coin"],
  ])("%j (label %j) reads %j", (message, label, words) => {
    expect(staffMessage(message, label)).toBe(words);
  });
});
