// How an address is compared with a sanctions list's entries: one form per address, whatever chain or asset
// the list or the request names it under (a USDT address listed under ETH matches on ERC20 and TRC20 alike).
// - Hex (0x and 40 hex digits for EVM, 64 for Sui and Aptos): the checksum's mixed case is presentation only, so
//   lower case.
// - bech32 / bech32m (bc1…, ltc1…, tb1…): one case only by the format's rule, both cases the same address,
//   so lower case. A mixed-case string is not bech32 and is kept as written.
// - Everything else (base58: BTC legacy 1…/3…, TRON T…, XRP r…; Monero; Solana) is case-sensitive: two case
//   variants are two addresses, so it is kept as written.
// Surrounding white space is never part of an address.

// Hex account addresses: EVM's 20 bytes, and the 32 bytes of Sui and Aptos (0x and 64 hex digits), whose case is
// presentation only too.
const EVM = /^0x([0-9a-f]{40}|[0-9a-f]{64})$/i;
// bech32: a human-readable part of letters, the separator "1", then at least 6 characters of the data alphabet
// (which has no "1", "b", "i", "o"), all in one case; at most 90 characters in all.
const BECH32_LOWER = /^[a-z]{1,20}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/;
const BECH32_UPPER = /^[A-Z]{1,20}1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{6,}$/;

export type AddressForm = "evm" | "bech32" | "as-written";

/** Which rule normalises `address` (already trimmed). */
export function addressForm(address: string): AddressForm {
  if (EVM.test(address)) return "evm";
  if (address.length <= 90 && (BECH32_LOWER.test(address) || BECH32_UPPER.test(address))) return "bech32";
  return "as-written";
}

/** The form an address is listed and looked up under. */
export function normaliseAddress(address: string): string {
  const a = address.trim();
  return addressForm(a) === "as-written" ? a : a.toLowerCase();
}
