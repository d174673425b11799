import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { coverageOf } from "@/server/ledger/coverage";

export const GET = apiRoute(ledgerResources.coverage, async ({ db, input }) => {
  const limit = input.limit ?? 100;
  const coverage = await coverageOf(db, {
    dataset: "deposits",
    from: input.from,
    to: input.to,
    uids: input.subUid ? [input.subUid] : undefined,
    limit,
    after: input.cursor,
  });
  return { coverage, nextCursor: coverage.missing.length === limit ? coverage.missing.at(-1)!.subUid : null };
});
