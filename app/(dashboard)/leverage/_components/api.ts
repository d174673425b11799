// The browser's side of E10 through the proxy and of its history in the audit log (STYLE rule 3: every
// reply is parsed here with the catalog's schemas).
import { z } from "zod";
import { proxyPath } from "@/lib/client/api";
import { leverageSettingSchema } from "@/lib/platform/catalog/futures";

export const LEVERAGE_PATH = proxyPath("leverage.set");
/** React Query key of the history; the catalog id heads it (STYLE rule 4). */
export const HISTORY_KEY = ["leverage.set", "history"] as const;
export const HISTORY_LIMIT = 50;

export const leverageReplySchema = z.object({
  code: z.literal("00000"),
  msg: z.string(),
  requestTime: z.number(),
  data: leverageSettingSchema,
});
