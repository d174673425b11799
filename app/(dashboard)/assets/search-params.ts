// The URL state of /assets (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString, parseAsStringLiteral } from "nuqs";

export const ASSET_TYPES = ["all", "hold_only"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
export const ASSET_TYPE_LABELS: Record<AssetType, string> = {
  all: "Every coin held at any time",
  hold_only: "Non-zero balances only",
};

export const assetsSearchParams = {
  /** Absent = the first known sub-account. */
  uid: parseAsString,
  /** One coin (E2 `coin`); absent = every coin. */
  coin: parseAsString,
  // "all" by default: E2's own default leaves out coins spent to zero, which staff then miss.
  assetType: parseAsStringLiteral(ASSET_TYPES).withDefault("all"),
};
