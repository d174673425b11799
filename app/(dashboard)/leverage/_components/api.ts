// The browser's side of E10 through the proxy and of its history in the audit log (STYLE rule 3: every
// reply is parsed here with the catalog's schemas).
import { z } from "zod";
import { ApiError, proxyPath, type PlatformRefusal } from "@/lib/client/api";
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

const refusalBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
    platform: z
      .object({ code: z.string(), msg: z.string(), httpStatus: z.number().optional(), operation: z.string(), meaning: z.string().optional() })
      .optional(),
  }),
});

/**
 * A same-origin JSON POST that keeps the platform's `meaning` of a refusal (the shared reader drops it),
 * so staff read why the platform said no beside its code and message.
 */
export async function postJson<S extends z.ZodType>(url: string, schema: S, body: unknown): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", `Brokerdesk could not be reached (${e instanceof Error ? e.message : String(e)})`);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const parsed = refusalBodySchema.safeParse(json);
    if (!parsed.success) throw new ApiError(res.status, "http_error", `Brokerdesk answered HTTP ${res.status} without an explanation`);
    const e = parsed.data.error;
    throw new ApiError(res.status, e.code, e.message, e.platform, e.fieldErrors);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(502, "malformed", `The reply from ${url} was not in the expected shape`);
  return parsed.data;
}

export type Refusal = { code: string; msg: string; meaning: string | null };

export function platformRefusal(e: unknown): Refusal | null {
  if (!(e instanceof ApiError) || e.code !== "platform_error" || !e.platform) return null;
  const p: PlatformRefusal & { meaning?: unknown } = e.platform;
  return { code: p.code, msg: p.msg, meaning: typeof p.meaning === "string" ? p.meaning : null };
}
