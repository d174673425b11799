import "server-only";
import { DomainError } from "@/lib/api/errors";
import { proxyResources, workflowRouteOf } from "@/lib/api/proxy";
import { catalog, keyRefusal, type OperationId } from "@/lib/platform/catalog";
import { platformKeyTarget } from "@/lib/platform/key-names";
import { env } from "@/lib/env";
import type { Role } from "@/lib/rbac";
import type { CredentialStore } from "@/server/platform/credentials";
import { leverageGate, recordFromMirror } from "@/server/leverage/mirror";
import { PlatformNetworkError, PlatformTimeoutError } from "@/server/platform/errors";
import { apiRoute } from "./api-route";

/** Header by which a permitted caller picks another configured key (E3, E4, E9, E10 only). */
export const KEY_HEADER = "x-platform-key";
/**
 * A browser request waits at most this long in Brokerdesk's own queue for rate budget, well inside
 * PLATFORM_TIMEOUT_MS: past it the answer is 429 "Brokerdesk is busy" with Retry-After, so a 504 only ever
 * means the platform itself was slow.
 */
const PROXY_QUEUE_DEADLINE_MS = 3_000;

/**
 * A proxy route mirroring one platform operation at /api/platform/v2/...: the catalog's permission and
 * request schema (through its resource entry), the platform's envelope on success (with the catalog's
 * normalised data). E5, E6 and E9 change what Brokerdesk keeps records of, so the mirror refuses them once
 * the input is checked, naming the workflow route that does them: nothing is sent.
 */
export function platformRoute(id: OperationId) {
  const op = catalog[id];
  const resource = proxyResources[id];
  const workflow = workflowRouteOf(id);
  if (id === "withdrawals.submit" && workflow) {
    // Two-person rule: refused whatever the input, before it is even read.
    return apiRoute({ ...resource, input: undefined, audit: undefined }, async () => {
      throw new DomainError(workflow.code, workflow.why);
    });
  }
  return apiRoute(
    // A refused mutation writes no intent: there is nothing it would do.
    workflow ? { ...resource, audit: undefined } : resource,
    async ({ input, req, platform, db, session, intentId }) => {
      if (workflow) throw new DomainError(workflow.code, workflow.why);
      // E10 here as on the single form: the leverage policy first (nothing is sent on a refusal or a second lead).
      if (id === "leverage.set") await leverageGate(db, input as never);
      const client = await platform();
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
        if (id === "leverage.set") {
          const key = req.headers.get(KEY_HEADER) ?? "main";
          await recordFromMirror(db, { key, input: input as never, data: data as never, session, intentId });
        }
        return { code: "00000" as const, msg: envelope.msg, requestTime: envelope.requestTime, data };
      } catch (e) {
        if (e instanceof PlatformNetworkError && deadline.aborted && !req.signal.aborted) {
          throw new PlatformTimeoutError(id, "total", timeoutMs, e.requestSent);
        }
        throw e;
      }
    },
    {
      // A mutation's audit rows say which account's key signed it: E10 changes the leverage of that account.
      auditTarget: (_input, { req }) =>
        op.method === "POST" && op.keySelectable ? platformKeyTarget(req.headers.get(KEY_HEADER) ?? "main") : null,
      authorize: (_input, { req, session, credentials }) =>
        keyChoiceRefusal(credentials, req.headers.get(KEY_HEADER), session.role),
      check: (input, { req, credentials }) => {
        const key = req.headers.get(KEY_HEADER) ?? "main";
        if (key !== "main" && !op.keySelectable) return { key: `${op.id} always uses the main account's key` };
        if (!credentials.names().includes(key)) return { key: `No platform key named "${key}" is configured` };
        const { role } = credentials.get(key);
        const refused = keyRefusal(op, role, key);
        if (refused) return { key: refused };
        return op.keyRule?.(input as never, role) ?? null;
      },
    },
  );
}

/**
 * A named platform key chosen by someone whose role may not use it (server/platform/key-access.ts): 403
 * platform_key_forbidden. Names that are not configured keys are left to the input check (422 on key).
 */
export function keyChoiceRefusal(
  credentials: CredentialStore,
  key: string | null | undefined,
  role: Role,
): DomainError | null {
  if (key === null || key === undefined || key === "main" || !credentials.names().includes(key)) return null;
  if (credentials.mayChoose(key, role)) return null;
  const roles = credentials.rolesOf(key);
  return new DomainError(
    "platform_key_forbidden",
    `Your role (${role}) may not use the platform key "${key}"; ` +
      (roles.length ? `it is for ${roles.join(", ")}` : "no role may choose it"),
  );
}
