// Made-up Travel Rule data for tests, the e2e suites, the chaos workload and the benchmark: a beneficiary who is
// a natural person at a named VASP (with a valid LEI), one behind a self-hosted wallet, and a holder for a
// sub-account. Plain data, no zod. Every name here is fictional.
import type { Ivms101Person } from "./ivms101";
import type { TravelRuleInput } from "./api/withdrawals/travel-rule";

/** A made-up LEI (no such entity) whose ISO 17442 check digits are right. */
export const FIXTURE_LEI = "9999000EXAMPLEVASP16";

/** The beneficiary is a natural person at a VASP the requester names (with its LEI). */
export const FIXTURE_TRAVEL_RULE: TravelRuleInput = {
  beneficiary: {
    beneficiaryPersons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              { primaryIdentifier: "Example", secondaryIdentifier: "Erika", nameIdentifierType: "LEGL" },
            ],
          },
          countryOfResidence: "DE",
        },
      },
    ],
  },
  beneficiaryVASP: {
    beneficiaryVASP: {
      legalPerson: {
        name: { nameIdentifier: [{ legalPersonName: "Example Exchange GmbH", legalPersonNameIdentifierType: "LEGL" }] },
        nationalIdentification: { nationalIdentifier: FIXTURE_LEI, nationalIdentifierType: "LEIX" },
        countryOfRegistration: "DE",
      },
    },
  },
};

/** The beneficiary is a legal person holding a self-hosted wallet, attested by a signed message. */
export const FIXTURE_SELF_HOSTED: TravelRuleInput = {
  beneficiary: {
    beneficiaryPersons: [
      {
        legalPerson: {
          name: { nameIdentifier: [{ legalPersonName: "Sample Trading Ltd", legalPersonNameIdentifierType: "LEGL" }] },
          countryOfRegistration: "MT",
        },
      },
    ],
  },
  selfHostedWallet: {
    method: "signed_message",
    statement: "The customer signed the phrase 'Sample Trading withdrawal' with the address's key on a call.",
  },
};

/** A sub-account holder: a natural person with an address (the originator's data the EU rule asks for). */
export const FIXTURE_HOLDER: Ivms101Person = {
  naturalPerson: {
    name: { nameIdentifier: [{ primaryIdentifier: "Muster", secondaryIdentifier: "Max", nameIdentifierType: "LEGL" }] },
    geographicAddress: [
      { addressType: "HOME", streetName: "Hauptstrasse", buildingNumber: "1", townName: "Berlin", country: "DE" },
    ],
    dateAndPlaceOfBirth: { dateOfBirth: "1980-04-30", placeOfBirth: "Hamburg" },
    countryOfResidence: "DE",
  },
};
