// One signed call straight to the simulator with this run's broker main key, as a script of the broker's
// would make it outside Brokerdesk: for tests of what Brokerdesk does with accounts it did not create.
// Plain fetch, not a Playwright request context: the key is sent, and nothing of it comes back.
import { createHmac } from "node:crypto";
import { buildQuery, prehash } from "../../lib/platform/protocol";
import { catalog, type OperationId } from "../../lib/platform/catalog";
import { secretsOfThisRun } from "./secrets";

export async function platformDirect<T>(
  id: OperationId,
  params: Record<string, string>,
): Promise<{ code: string; msg: string; data: T }> {
  const op = catalog[id];
  const s = secretsOfThisRun();
  const query = op.method === "GET" ? buildQuery(params) : "";
  const body = op.method === "POST" ? JSON.stringify(params) : "";
  const timestamp = String(Date.now());
  const signature = createHmac("sha256", s.PLATFORM_API_SECRET)
    .update(prehash(timestamp, op.method, op.path, query, body), "utf8")
    .digest("base64");
  const res = await fetch(
    `http://127.0.0.1:${process.env.E2E_SIM_PORT ?? "4110"}${op.path}${query ? `?${query}` : ""}`,
    {
      method: op.method,
      headers: {
        "Content-Type": "application/json",
        locale: "en-US",
        "ACCESS-KEY": s.PLATFORM_API_KEY,
        "ACCESS-PASSPHRASE": s.PLATFORM_API_PASSPHRASE,
        "ACCESS-TIMESTAMP": timestamp,
        "ACCESS-SIGN": signature,
      },
      body: body || undefined,
    },
  );
  return (await res.json()) as { code: string; msg: string; data: T };
}
