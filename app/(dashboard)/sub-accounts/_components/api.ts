"use client";
// Mutations of the registry. GETs go through lib/client/api (fetchJson); a POST here answers the same
// way: the reply parsed with the caller's schema, every failure an ApiError with the server's fields.
import { z } from "zod";
import { ApiError } from "@/lib/client/api";

const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
    platform: z.object({ code: z.string(), msg: z.string(), httpStatus: z.number().optional(), operation: z.string() }).optional(),
  }),
});

export async function postJson<S extends z.ZodType>(url: string, body: unknown, schema: S): Promise<z.output<S>> {
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
  const reply: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const parsed = errorBodySchema.safeParse(reply);
    if (parsed.success) {
      const e = parsed.data.error;
      throw new ApiError(res.status, e.code, e.message, e.platform, e.fieldErrors, Number(res.headers.get("Retry-After")) || undefined);
    }
    throw new ApiError(res.status, "http_error", `Brokerdesk answered HTTP ${res.status} without an explanation`);
  }
  const parsed = schema.safeParse(reply);
  if (!parsed.success) throw new ApiError(502, "malformed", `The reply from ${url} was not in the expected shape`);
  return parsed.data;
}

/** Query key head of the registry; invalidating it refreshes the list, the pickers and the detail pages. */
export const REGISTRY_KEY = "subaccounts.registry";
