// Server refusals onto form fields (STYLE rule 12): the server is the judge, so its 422 fieldErrors are
// shown under the fields they name, and whatever names no field is shown once for the whole form.
import { z } from "zod";
import { ApiError, describeError } from "@/lib/client/api";

const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
    platform: z.object({ code: z.string(), msg: z.string(), httpStatus: z.number().optional(), operation: z.string() }).optional(),
  }),
});

/** A same-origin JSON POST to Brokerdesk; the reply is parsed with `schema`, a refusal becomes an ApiError. */
export async function postJson<S extends z.ZodType>(url: string, schema: S, body: unknown): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", cache: "no-store", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body ?? {}) });
  } catch (e) {
    throw new ApiError(0, "network", `Brokerdesk could not be reached (${e instanceof Error ? e.message : String(e)})`);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const parsed = errorBodySchema.safeParse(json);
    if (parsed.success) {
      const e = parsed.data.error;
      throw new ApiError(res.status, e.code, e.message, e.platform, e.fieldErrors);
    }
    throw new ApiError(res.status, "http_error", `Brokerdesk answered HTTP ${res.status} without an explanation`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(502, "malformed", `The reply from ${url} was not in the expected shape`);
  return parsed.data;
}

type SetError<F extends string> = (name: F, error: { type: string; message: string }) => void;

/**
 * Puts each server field error on its field; returns the message for the form as a whole (null when every
 * problem was shown on a field).
 */
export function applyServerErrors<F extends string>(error: unknown, fields: readonly F[], setError: SetError<F>): string | null {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : "Something went wrong";
  const fe = error.fieldErrors ?? {};
  let placed = 0;
  const rest: string[] = [];
  for (const [name, msgs] of Object.entries(fe)) {
    if ((fields as readonly string[]).includes(name) && msgs.length) {
      setError(name as F, { type: "server", message: msgs.join(" ") });
      placed++;
    } else if (msgs.length) {
      rest.push(`${name}: ${msgs.join(" ")}`);
    }
  }
  if (placed && !rest.length) return null;
  const { title, detail } = describeError(error);
  return rest.length ? rest.join("; ") : detail ? `${title}: ${detail}` : title;
}
