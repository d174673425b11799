import "server-only";
import { catalog, type OperationId } from "@/lib/platform/catalog";
import { getPlatform } from "@/server/platform/runtime";
import { CredentialStore } from "@/server/platform/credentials";
import { PlatformNetworkError, PlatformTimeoutError } from "@/server/platform/errors";
import { env } from "@/lib/env";
import { apiRoute } from "./api-route";
import { HttpError } from "./errors";

/** Header by which a permitted caller picks another configured key (E3, E4, E9 only). */
export const KEY_HEADER = "x-platform-key";
/** A browser request should not wait long for rate budget: past this it gets 429 with Retry-After. */
const PROXY_QUEUE_DEADLINE_MS = 10_000;

const credentials = new CredentialStore(env.platform.keys);

/**
 * A proxy route mirroring one platform operation at /api/platform/v2/...: the catalog's permission and
 * request schema, the platform's envelope on success (with the catalog's normalised data).
 */
export function platformRoute(id: OperationId) {
  const op = catalog[id];
  if (id === "withdrawals.submit") {
    // Two-person rule: E5 is sent only by the withdrawal workflow when another lead approves.
    return apiRoute({ permission: op.permission }, async () => {
      throw new HttpError(403, "two_person_rule", "Withdrawals are requested and approved under /api/withdrawals, never sent directly");
    });
  }
  return apiRoute(
    {
      permission: op.permission,
      input: op.request,
      audit: op.method === "POST" ? { action: id } : undefined,
      check: (input, req) => {
        const key = req.headers.get(KEY_HEADER) ?? "main";
        if (key !== "main" && !op.keySelectable) return { key: `${op.id} always uses the main account's key` };
        if (!credentials.names().includes(key)) return { key: `No platform key named "${key}" is configured` };
        return op.keyRule?.(input as never, credentials.get(key).role) ?? null;
      },
    },
    async ({ input, req }) => {
      const { client } = await getPlatform();
      // PLATFORM_TIMEOUT_MS bounds the whole answer a browser waits for: the client's timeout is per
      // attempt and a GET is retried, so without this a slow platform would hold a page three times as long.
      const timeoutMs = env.platform.timeoutMs;
      const deadline = AbortSignal.timeout(timeoutMs);
      try {
        const { envelope, data } = await client.call(id, input as never, {
          key: req.headers.get(KEY_HEADER) ?? undefined,
          queueDeadlineMs: PROXY_QUEUE_DEADLINE_MS,
          signal: AbortSignal.any([req.signal, deadline]),
        });
        return { code: envelope.code, msg: envelope.msg, requestTime: envelope.requestTime, data };
      } catch (e) {
        if (e instanceof PlatformNetworkError && deadline.aborted && !req.signal.aborted) {
          throw new PlatformTimeoutError(id, "total", timeoutMs, e.requestSent);
        }
        throw e;
      }
    },
  );
}
