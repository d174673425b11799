// Staff read messages, not schemas: a field's name as the code spells it (subaccountName, subUid) becomes the
// words its form uses, once, for every message the browser shows (form fields, the form's error, an error
// state). The platform's own code and message are kept as they are: they are what its support asks for.
// Isomorphic.

/** The words for a field, where splitting its name would not say it (a UID, an order ID, a time). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  subaccountName: "Name",
  uid: "UID",
  subUid: "Sub-account UID",
  userId: "Sub-account UID",
  orderId: "Record ID",
  clientOid: "Client order ID",
  txId: "Transaction ID",
  startTime: "Start",
  endTime: "End",
  idLessThan: "Cursor",
  productType: "Product type",
  marginCoin: "Margin coin",
  holdSide: "Side",
  riskUnitId: "Risk unit ID",
  confirmAmount: "Amount typed to confirm",
  confirmAddress: "Address typed to confirm",
  currentPassword: "Current password",
  newPassword: "New password",
  // As the ledgers' filters are labelled.
  minAmount: "Amount at least",
  maxAmount: "Amount at most",
  amountMin: "Amount at least",
  amountMax: "Amount at most",
  requestedBy: "Requested by",
};

/** A field's name in words: "subaccountName" → "Name", "feeCoin" → "Fee coin", "amount" → "Amount". */
export function fieldWords(name: string): string {
  const known = FIELD_WORDS[name];
  if (known) return known;
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

// An identifier only code writes: a lower-case start with a capital inside (subUid, startTime). A part in
// parentheses is quoted (the platform's own message) and kept as it is.
const CAMEL_OUTSIDE_PARENS = /\([^)]*\)|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g;

/**
 * A validation message in staff's words: a leading field name becomes `label` (the form's own words for the
 * field, without its parenthesised hint) or the field's words, and any other field name in it its words.
 * "subaccountName is required" → "Name is required".
 */
export function staffMessage(message: string, label?: string): string {
  const lead = /^([a-z]+(?:[A-Z][a-z0-9]*)*)\b(?= (?:is|must|or|and|has|cannot|should|needs|was|does|may|of)\b)/.exec(
    message,
  )?.[1];
  let out = message;
  if (lead) {
    const words = label ? label.replace(/\s*\(.*\)\s*$/, "").trim() || fieldWords(lead) : fieldWords(lead);
    out = words + message.slice(lead.length);
  }
  return out.replace(CAMEL_OUTSIDE_PARENS, (m) => (m.startsWith("(") ? m : fieldWords(m)));
}

/**
 * A message about field `name`, already in staff's words, said with the form's own label for it: "Label is
 * required" under "Name in the book" → "Name in the book is required"; "Address must be a numeric UID" under
 * "Recipient UID" → "Recipient UID must be a numeric UID". A label's parenthesised hint is left out.
 */
export function relabel(message: string, name: string, label: string): string {
  const words = fieldWords(name);
  const plain = label.replace(/\s*\(.*\)\s*$/, "").trim();
  return plain && message.startsWith(`${words} `) ? plain + message.slice(words.length) : message;
}
