// The platform keys a staff member may choose on the ledger's fills and plan orders (`key=` of
// /spot/fills and /spot/plan-orders): names and kinds only. A key's API key, secret and passphrase never
// leave the server; this answer has no field that could hold one. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { KEY_KINDS, KEY_KIND_WORDS, KEY_LISTS } from "./words";

export { KEY_KINDS, KEY_KIND_WORDS, KEY_LISTS };
type KeyList = keyof typeof KEY_LISTS;
const LIST_NAMES = Object.keys(KEY_LISTS) as [KeyList, ...KeyList[]];

export const platformKeysQuerySchema = z.object({
  for: z.enum(LIST_NAMES, { error: `for is one of ${LIST_NAMES.join(", ")}` }),
});

export const platformKeySchema = z.strictObject({
  name: z.string(),
  kind: z.enum(KEY_KINDS),
  /** Whether the ledger keeps this key's fills and plan orders (LEDGER_TRADE_KEYS). */
  synced: z.boolean(),
});
export type PlatformKeyView = z.output<typeof platformKeySchema>;
export const platformKeysSchema = z.object({ keys: z.array(platformKeySchema) });

export const platformKeyResources = {
  list: defineResource({
    id: "keys.list",
    method: "GET",
    path: "/api/platform-keys",
    summary: "The configured platform keys this staff member may choose for a ledger list: names and kinds only",
    // The permission of the list the key is chosen for; which named keys a role may choose is key-access.ts's.
    permission: {
      describe: "fills.read or planOrders.read, by `for`",
      of: (raw) =>
        KEY_LISTS[
          raw && typeof raw === "object" && (raw as { for?: unknown }).for === "plan-orders" ? "plan-orders" : "fills"
        ],
    },
    input: platformKeysQuerySchema,
    output: platformKeysSchema,
    errors: [],
  }),
} as const;
