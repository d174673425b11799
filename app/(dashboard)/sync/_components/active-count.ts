// How many sub-accounts count as active (a deposit in the last week), said so that a count the sync is still
// learning does not read as final: a sub-account not checked yet has no known deposits, so it is not counted.

export function activeCount(active: number, freshness: { checked: number; subaccounts: number }): string {
  const n = active.toLocaleString("en-US");
  return freshness.checked < freshness.subaccounts ? `${n} so far, among the ${freshness.checked.toLocaleString("en-US")} checked` : n;
}
