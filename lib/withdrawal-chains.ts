// Per-coin rules of a withdrawal that the platform's documentation does not state: the chain used when staff
// pick none, the coins that need a tag (memo), and the decimals a balance carries. Isomorphic.
import type { WithdrawalCoin } from "@/lib/platform/schemas";

/**
 * The chain each coin is sent on when staff do not pick one (shown in the form and stored with the request,
 * so what is sent is what was approved). Chosen from common exchange practice: the coin's native chain, or
 * its most used token standard for tokens (USDT on TRC20 for its low fees; ERC-20 tokens on ERC20). They
 * agree with the simulator's own defaults where it has one.
 */
export const DEFAULT_CHAINS: Readonly<Record<WithdrawalCoin, string>> = {
  BTC: "BTC",
  ETH: "ERC20",
  USDT: "TRC20",
  USDC: "ERC20",
  TRX: "TRC20",
  XRP: "XRP",
  LTC: "LTC",
  SOL: "SOL",
  BNB: "BEP20",
  FTM: "FTM",
  DOGE: "DOGE",
  ADA: "ADA",
  SHIB: "ERC20",
  UNI: "ERC20",
  SEI: "SEI",
  SUI: "SUI",
  POL: "Polygon",
  FIL: "FIL",
  LINK: "ERC20",
  TON: "TON",
  ARB: "ArbitrumOne",
  OP: "Optimism",
  DOT: "DOT",
  AVAX: "C-Chain",
};

/**
 * Coins whose on-chain withdrawals need a tag (memo), because exchanges and custodians receive them on one
 * shared address and tell customers apart by it: a withdrawal without it is lost or needs a manual recovery.
 * From common knowledge of these chains, not from the platform's documentation (which does not list them):
 * XRP's "destination tag" (an unsigned 32-bit number) and TON's "memo"/comment (free text). None of the
 * other coins of the 24 use one on their default chains. Add a coin here to make the form ask for its tag.
 */
export const TAG_COINS: Readonly<Partial<Record<WithdrawalCoin, { label: string; numeric: boolean }>>> = {
  XRP: { label: "Destination tag", numeric: true },
  TON: { label: "Memo", numeric: false },
};

export function tagRuleOf(coin: string): { label: string; numeric: boolean } | undefined {
  return (TAG_COINS as Record<string, { label: string; numeric: boolean } | undefined>)[coin];
}

/** Balances, and so withdrawals, carry at most 8 decimals; more is refused by the platform (40020). */
export const AMOUNT_MAX_DECIMALS = 8;
/** XRP destination tags are unsigned 32-bit numbers. */
export const XRP_TAG_MAX = 4_294_967_295;
