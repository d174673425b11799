import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { coverageOf } from "@/server/ledger/coverage";
import { datasetsCoverage } from "@/server/ledger/datasets-coverage";

export const GET = apiRoute(ledgerResources.coverage, async ({ db, input }) => {
  const limit = input.limit ?? 100;
  const uids = input.subUid ? [input.subUid] : undefined;
  const [coverage, datasets] = await Promise.all([
    coverageOf(db, { dataset: "deposits", from: input.from, to: input.to, uids, limit, after: input.cursor }),
    datasetsCoverage(db, { from: input.from, to: input.to, uids }),
  ]);
  return {
    coverage,
    nextCursor: coverage.missing.length === limit ? coverage.missing.at(-1)!.subUid : null,
    datasets,
  };
});
