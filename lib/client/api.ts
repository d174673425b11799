// The browser's helpers around Brokerdesk's API: the words and retry rules of a failure (calls to a platform
// operation through the proxy are in ./platform). Every call goes through lib/api's callResource and fails as
// its ApiError.
import { ApiError } from "@/lib/api/errors";
import { fieldWords, staffMessage } from "@/lib/words";

export { ApiError };

export type Refusal = { code: string; msg: string; meaning: string | null };

/** The platform's own refusal (code, msg and what it means), or null for any other failure. */
export function platformRefusal(e: unknown): Refusal | null {
  if (!(e instanceof ApiError) || e.code !== "platform_error" || !e.platform) return null;
  return { code: e.platform.code, msg: e.platform.msg, meaning: e.platform.meaning ?? null };
}

/**
 * Whether a failed query is worth one automatic retry: only transient faults, never a refusal. Not a 504:
 * the server already waited the platform's whole timeout, and waiting it again would double what staff wait.
 */
export function isTransient(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 0 || e.code === "platform_network");
}

/**
 * Whether asking again can change the answer. A refusal of the request itself cannot: Brokerdesk's 4xx
 * (not allowed, not valid, not found, already decided) but its 429, and the platform's 4xxxx codes (40034
 * "does not exist", 43012 "insufficient balance", 49001...), which the same request gets every time. An
 * outage, a timeout, a rate limit or the platform's 50000 "System busy" may pass.
 */
export function canRetry(e: unknown): boolean {
  if (!(e instanceof ApiError)) return true;
  if (e.platform && /^4\d{4}$/.test(e.platform.code)) return false;
  return !(e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 408);
}

/** The words an error state shows: the platform's own code and message when it refused. */
export function describeError(e: unknown): { title: string; detail: string | null } {
  if (!(e instanceof ApiError))
    return { title: "Something went wrong in the page", detail: e instanceof Error ? e.message : null };
  if (e.status === 401) return { title: "Your session has ended", detail: "Sign in again to continue." };
  if (e.status === 403) return { title: "Not allowed", detail: e.message };
  if (e.status === 429) {
    return {
      title: "Rate limit reached",
      detail: e.retryAfter ? `${e.message}. Retry after ${e.retryAfter} s.` : e.message,
    };
  }
  if (e.status === 422 && e.fieldErrors) {
    const fields = Object.entries(e.fieldErrors).map(([f, msgs]) => fieldProblem(f, msgs));
    return { title: "The request was not valid", detail: fields.join("; ") || e.message };
  }
  if (e.platform && e.code === "platform_error") {
    // The platform's code and message stay as sent (its support asks for them); what it means is said in words.
    const meaning = e.platform.meaning ? ` ${e.platform.meaning}` : "";
    return {
      title: `Platform error ${e.platform.code}: ${e.platform.msg}`,
      detail: `The platform refused the request.${meaning}`,
    };
  }
  if (e.status === 504) return { title: "The platform did not answer in time", detail: e.message };
  if (e.code === "database_unavailable") return { title: "Brokerdesk's database is unreachable", detail: e.message };
  // The message names the alerts that joined the case since the reviewer read it.
  if (e.code === "case_changed") return { title: "The case has changed since you opened it", detail: e.message };
  return {
    title: e.status ? `Request failed (HTTP ${e.status})` : "Brokerdesk could not be reached",
    detail: e.message,
  };
}

/** A failure in one sentence: what `describeError` says, title then detail. */
export function errorText(e: unknown): string {
  const { title, detail } = describeError(e);
  return detail ? `${title}. ${detail}` : title;
}

/**
 * One field's problems in staff's words: "Name is required", or "Amount: must be …" when the message does not name
 * it.
 */
export function fieldProblem(field: string, msgs: readonly string[]): string {
  const words = field === "_" ? "" : fieldWords(field);
  return msgs
    .map((m) => {
      const said = staffMessage(m, words || undefined);
      return !words || said.startsWith(words) ? said : `${words}: ${said}`;
    })
    .join(" ");
}
