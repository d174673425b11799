import { apiRoute } from "@/server/http/api-route";
import { HttpError } from "@/server/http/errors";
import { ensureRegistrySeeded, getRegistryEntry } from "@/server/workflows/subaccounts";

export const GET = apiRoute({ permission: "subaccounts.read" }, async ({ db, params }) => {
  const uid = params.uid ?? "";
  if (!/^\d{1,32}$/.test(uid)) throw new HttpError(404, "not_found", `"${uid}" is not a sub-account UID`);
  await ensureRegistrySeeded(db);
  const entry = await getRegistryEntry(db, uid);
  if (!entry) throw new HttpError(404, "not_found", `Sub-account ${uid} is not in Brokerdesk's registry`);
  return { entry };
});
