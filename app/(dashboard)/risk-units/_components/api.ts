// The browser's side of /api/risk-units: replies parsed with these schemas (STYLE rule 3), refusals kept whole.
import { z } from "zod";
import { ApiError, type PlatformRefusal } from "@/lib/client/api";

export const bindingSchema = z.object({
  id: z.string(),
  riskUnitId: z.string(),
  uid: z.string(),
  state: z.enum(["bound", "unbound"]),
  boundBy: z.string(),
  boundAt: z.string(),
  unboundBy: z.string().nullable(),
  unboundAt: z.string().nullable(),
});
export type Binding = z.output<typeof bindingSchema>;

export const bindingListSchema = z.object({ items: z.array(bindingSchema) });
export const bindReplySchema = z.object({ binding: bindingSchema, platform: z.unknown() });

/** React Query key of the bindings list; the catalog id heads it (STYLE rule 4). */
export const BINDINGS_KEY = ["riskUnits.bind", "bindings"] as const;

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
 * A same-origin JSON POST. Unlike the shared reader, it keeps the platform's `meaning` of a refusal: staff
 * are told in words why the platform said no, next to its code and message.
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

/** The platform's own refusal (code, msg and what it means), or null for any other failure. */
export function platformRefusal(e: unknown): Refusal | null {
  if (!(e instanceof ApiError) || e.code !== "platform_error" || !e.platform) return null;
  const p: PlatformRefusal & { meaning?: unknown } = e.platform;
  return { code: p.code, msg: p.msg, meaning: typeof p.meaning === "string" ? p.meaning : null };
}
