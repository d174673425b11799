// Is this a valid address on this chain? Checked in the form and on the server with the same rules (the
// request schema calls it), so "abc" on TRC20 never reaches a lead's queue. Each chain is checked with a
// maintained codec: multicoin-address-validator (checksums of Base58Check, bech32, EIP-55, SS58, …) for
// the chains it knows; for the four it does not, the chain's own encoding through @scure/base and
// @noble/hashes (SEI: bech32 "sei1…"; FIL: base32 with its blake2b checksum; TON: base64 with its CRC16;
// SUI: 32 bytes in hex, its only form). Isomorphic.
import WAValidator from "multicoin-address-validator";
import { base32nopad, base64, base64urlnopad, bech32 } from "@scure/base";
import { blake2b } from "@noble/hashes/blake2.js";

type Check = (address: string) => boolean;

const lib = (currency: string): Check => (a) => {
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

/** The chains Brokerdesk can send on, by their name upper-cased, with the address check of each. */
const CHAINS: Readonly<Record<string, { name: string; check: Check }>> = {
  BTC: { name: "Bitcoin", check: lib("btc") },
  ERC20: { name: "Ethereum", check: evm },
  ETH: { name: "Ethereum", check: evm },
  BEP20: { name: "BNB Smart Chain", check: evm },
  BSC: { name: "BNB Smart Chain", check: evm },
  POLYGON: { name: "Polygon", check: evm },
  MATIC: { name: "Polygon", check: evm },
  ARBITRUMONE: { name: "Arbitrum One", check: evm },
  OPTIMISM: { name: "Optimism", check: evm },
  "C-CHAIN": { name: "Avalanche C-Chain", check: evm },
  FTM: { name: "Fantom", check: evm },
  TRC20: { name: "Tron", check: lib("trx") },
  TRX: { name: "Tron", check: lib("trx") },
  XRP: { name: "XRP Ledger", check: lib("xrp") },
  LTC: { name: "Litecoin", check: lib("ltc") },
  SOL: { name: "Solana", check: lib("sol") },
  DOGE: { name: "Dogecoin", check: lib("doge") },
  ADA: { name: "Cardano", check: lib("ada") },
  DOT: { name: "Polkadot", check: lib("dot") },
  SEI: { name: "Sei", check: sei },
  SUI: { name: "Sui", check: sui },
  FIL: { name: "Filecoin", check: fil },
  TON: { name: "TON", check: ton },
};

export const KNOWN_CHAINS = Object.keys(CHAINS);

export function isKnownChain(chain: string): boolean {
  return CHAINS[chain.toUpperCase()] !== undefined;
}

/**
 * Why this address cannot receive on this chain, in words for staff, or null when it can. An unknown chain
 * is the chain field's problem (see isKnownChain), not the address's: null here.
 */
export function addressProblem(chain: string, address: string): string | null {
  const rule = CHAINS[chain.toUpperCase()];
  if (!rule) return null;
  return rule.check(address) ? null : `address is not a valid ${rule.name} address (chain ${chain}): check it character by character`;
}
