import { describe, expect, it } from "vitest";
import { fieldWords, relabel, staffMessage } from "./words";

describe("[words] messages in staff's words", () => {
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
    [
      "userId or orderId is required (they must not both be empty)",
      undefined,
      "Sub-account UID or Record ID is required (they must not both be empty)",
    ],
    ["endTime must not be before startTime", undefined, "End must not be before Start"],
    // The platform's quoted words are kept.
    [
      "marginCoin: the platform refused it (40020 Parameter marginCoin error)",
      undefined,
      "Margin coin: the platform refused it (40020 Parameter marginCoin error)",
    ],
    // Sentences that name no field are left as they are.
    ["A sub-account named desk01@x.com already exists", undefined, "A sub-account named desk01@x.com already exists"],
    ["Choose a coin", undefined, "Choose a coin"],
  ])("%j (label %j) reads %j", (message, label, words) => {
    expect(staffMessage(message, label)).toBe(words);
  });
});

describe("[words][relabel] a field's message says the form's own label", () => {
  it.each([
    ["Label is required", "label", "Name in the book", "Name in the book is required"],
    [
      "Address must be a numeric UID for an internal transfer",
      "address",
      "Recipient UID",
      "Recipient UID must be a numeric UID for an internal transfer",
    ],
    ["Sub-account UID is required", "subUid", "Sub-account", "Sub-account is required"],
    ["Amount must be greater than 0", "amount", "Amount (USDT)", "Amount must be greater than 0"],
    // Another field's words, or words the message does not start with, are left alone.
    ["Chain is required", "address", "Recipient UID", "Chain is required"],
    ["Addresses differ", "address", "Recipient UID", "Addresses differ"],
  ])("%j under %j (%s) → %j", (message, name, label, said) => {
    expect(relabel(message, name, label)).toBe(said);
  });
});
