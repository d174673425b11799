// The chains Brokerdesk can send on, by their name upper-cased, and what each is called. Isomorphic and
// light: the address checks themselves are server-only (server/workflows/address-check.ts).
export const CHAIN_NAMES = {
  BTC: "Bitcoin",
  ERC20: "Ethereum",
  ETH: "Ethereum",
  BEP20: "BNB Smart Chain",
  BSC: "BNB Smart Chain",
  POLYGON: "Polygon",
  MATIC: "Polygon",
  ARBITRUMONE: "Arbitrum One",
  OPTIMISM: "Optimism",
  "C-CHAIN": "Avalanche C-Chain",
  FTM: "Fantom",
  TRC20: "Tron",
  TRX: "Tron",
  XRP: "XRP Ledger",
  LTC: "Litecoin",
  SOL: "Solana",
  DOGE: "Dogecoin",
  ADA: "Cardano",
  DOT: "Polkadot",
  SEI: "Sei",
  SUI: "Sui",
  FIL: "Filecoin",
  TON: "TON",
} as const;
export type KnownChain = keyof typeof CHAIN_NAMES;

export const KNOWN_CHAINS = Object.keys(CHAIN_NAMES) as KnownChain[];

export function isKnownChain(chain: string): boolean {
  return Object.hasOwn(CHAIN_NAMES, chain.toUpperCase());
}

/**
 * An EVM address or hash (0x…) or a bare hex transaction ID (16 hex digits or more): the same identifier in
 * any case (a checksummed address mixes them), so the ledgers' searches match it in any case. A base58
 * address is case-sensitive and is matched as typed.
 */
export const HEX_IDENTIFIER = /^(0x)?[0-9a-f]{16,}$/i;
