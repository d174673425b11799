// The self-hosted wallet's attestation methods and their words, without zod (the request form's fieldset
// reads them before any call; ./travel-rule builds its schema on them). Isomorphic.

/** How the customer showed they control a self-hosted address. */
export const SELF_HOSTED_METHODS = ["signed_message", "test_transfer", "other"] as const;
export type SelfHostedMethod = (typeof SELF_HOSTED_METHODS)[number];

export const SELF_HOSTED_METHOD_WORDS: Record<SelfHostedMethod, string> = {
  signed_message: "A message signed with the address's key",
  test_transfer: "A small test transfer from the address",
  other: "Another way (said in the statement)",
};
