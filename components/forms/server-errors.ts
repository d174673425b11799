// Server refusals onto form fields (STYLE rule 12): the server is the judge, so its 422 fieldErrors are
// shown under the fields they name, and whatever names no field is shown once for the whole form.
import { ApiError, describeError } from "@/lib/client/api";

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
