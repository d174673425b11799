import "server-only";
// Is this a valid address on this chain? Checked by the server before a request or an address-book entry is
// saved, so "abc" on TRC20 never reaches a lead's queue; the form shows the answer on the address field.
// Server-only: the codecs weigh about 70 KiB gzipped, too much for every page's JavaScript (the
// 200 KiB page budget), and the chain names a form needs are in lib/withdrawal-addresses.ts. Each chain is checked with
// a
// maintained codec: multicoin-address-validator (checksums of Base58Check, bech32, EIP-55, SS58, …) for
// the chains it knows; for the four it does not, the chain's own encoding through @scure/base and
// @noble/hashes (SEI: bech32 "sei1…"; FIL: base32 with its blake2b checksum; TON: base64 with its CRC16;
// SUI: 32 bytes in hex, its only form).
import WAValidator from "multicoin-address-validator";
import { base32nopad, base64, base64urlnopad, bech32 } from "@scure/base";
import { blake2b } from "@noble/hashes/blake2.js";
import { CHAIN_NAMES, type KnownChain } from "@/lib/withdrawal-addresses";

type Check = (address: string) => boolean;

const lib =
  (currency: string): Check =>
  (a) => {
    try {
      return WAValidator.validate(a, currency);
    } catch {
      return false;
    }
  };

const evm = lib("eth");

function sei(a: string): boolean {
  try {
    const { prefix, words } = bech32.decode(a as `${string}1${string}`);
    const bytes = bech32.fromWords(words).length;
    return prefix === "sei" && (bytes === 20 || bytes === 32);
  } catch {
    return false;
  }
}

const sui: Check = (a) => /^0x[0-9a-fA-F]{64}$/.test(a);

/** Filecoin: f0<id>, or f1/f2/f3/f4 + base32(payload ‖ blake2b-4(protocol ‖ payload)). */
function fil(a: string): boolean {
  if (/^f0\d{1,20}$/.test(a)) return true;
  const m = /^f([1-3])([a-z2-7]+)$/.exec(a);
  if (!m) return false;
  try {
    const raw = base32nopad.decode(m[2]!.toUpperCase());
    const size = { "1": 20, "2": 20, "3": 48 }[m[1] as "1" | "2" | "3"];
    if (raw.length !== size + 4) return false;
    const payload = raw.slice(0, size);
    const sum = blake2b(Uint8Array.of(Number(m[1]), ...payload), { dkLen: 4 });
    return sum.every((b, i) => b === raw[size + i]);
  } catch {
    return false;
  }
}

function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** TON: the user-friendly form (36 bytes, base64 or base64url, CRC16 at the end) or the raw "wc:hex". */
function ton(a: string): boolean {
  if (/^-?\d{1,3}:[0-9a-fA-F]{64}$/.test(a)) return true;
  if (a.length !== 48) return false;
  try {
    const raw = /[-_]/.test(a) ? base64urlnopad.decode(a) : base64.decode(a);
    if (raw.length !== 36) return false;
    const sum = crc16(raw.slice(0, 34));
    return raw[34] === sum >> 8 && raw[35] === (sum & 0xff);
  } catch {
    return false;
  }
}

/** The address check of each chain Brokerdesk can send on. */
const CHECKS: Readonly<Record<KnownChain, Check>> = {
  BTC: lib("btc"),
  ERC20: evm,
  ETH: evm,
  BEP20: evm,
  BSC: evm,
  POLYGON: evm,
  MATIC: evm,
  ARBITRUMONE: evm,
  OPTIMISM: evm,
  "C-CHAIN": evm,
  FTM: evm,
  TRC20: lib("trx"),
  TRX: lib("trx"),
  XRP: lib("xrp"),
  LTC: lib("ltc"),
  SOL: lib("sol"),
  DOGE: lib("doge"),
  ADA: lib("ada"),
  DOT: lib("dot"),
  SEI: sei,
  SUI: sui,
  FIL: fil,
  TON: ton,
};

/**
 * Why this address cannot receive on this chain, in words for staff, or null when it can. An unknown chain
 * is the chain field's problem (see isKnownChain), not the address's: null here.
 */
export function addressProblem(chain: string, address: string): string | null {
  const key = chain.toUpperCase() as KnownChain;
  const check = CHECKS[key];
  if (!check) return null;
  return check(address)
    ? null
    : `address is not a valid ${CHAIN_NAMES[key]} address (chain ${chain}): check it character by character`;
}
