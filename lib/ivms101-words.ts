// An IVMS101 person in words, for pages: without zod (the model is lib/ivms101.ts), so a page that shows
// Travel Rule data loads no schema. Isomorphic.
import type { Ivms101Person } from "./ivms101";

/** "Muster, Max (natural person, resident in DE)" or "Sample Trading Ltd (legal person, registered in MT)". */
export function personWords(p: Ivms101Person): string {
  if (p.naturalPerson) {
    const n = p.naturalPerson.name.nameIdentifier[0];
    const name = [n?.primaryIdentifier, n?.secondaryIdentifier].filter(Boolean).join(", ");
    const where = p.naturalPerson.countryOfResidence ? `, resident in ${p.naturalPerson.countryOfResidence}` : "";
    return `${name} (natural person${where})`;
  }
  const l = p.legalPerson;
  const where = l?.countryOfRegistration ? `, registered in ${l.countryOfRegistration}` : "";
  return `${l?.name.nameIdentifier[0]?.legalPersonName ?? ""} (legal person${where})`;
}
