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
