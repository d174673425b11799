import "server-only";
// One lock orders the lists against every decision that screens inside its transaction. A decision that lets money
// go (an approval, the claim of a request for sending) takes it shared, then screens the destination; whatever makes
// a list version active (an import, the confirmation of a version that removes addresses) takes it exclusive. So a
// version either became active before the decision screened, and is seen, or waits until the decision committed,
// and the rescreen that follows its activation finds what the decision let through (an approved request is
// screened again, under this lock, when it is claimed for sending).
import type { Queryable } from "@/server/db";

const KEY = "hashtext('screening-lists')";

export async function lockListsShared(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock_shared(${KEY})`);
}

export async function lockListsExclusive(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${KEY})`);
}
