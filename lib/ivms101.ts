// The interVASP Messaging Standard (IVMS101) data model, as far as the Travel Rule needs it: the originator
// and beneficiary persons (natural or legal), their account numbers, and the two VASPs. Field names are
// IVMS101's own (camelCase JSON, as TRISA's ivms101 package writes them), so what Brokerdesk stores and
// exports can be read by any VASP's tooling. Isomorphic: the request form and the server parse with it.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { preprocess } from "@/lib/platform/value-schemas";

export const NATURAL_NAME_TYPES = ["LEGL", "ALIA", "BIRT", "MAID", "MISC"] as const;
export const LEGAL_NAME_TYPES = ["LEGL", "SHRT", "TRAD"] as const;
export const ADDRESS_TYPES = ["HOME", "BIZZ", "GEOG"] as const;
export const NATIONAL_ID_TYPES = [
  "ARNU",
  "CCPT",
  "RAID",
  "DRLC",
  "FIIN",
  "TXID",
  "SOCS",
  "IDCD",
  "LEIX",
  "MISC",
] as const;

/**
 * ISO 17442: 18 upper-case letters or digits, then two check digits such that the whole, letters read as
 * 10..35, is 1 modulo 97 (ISO 7064 MOD 97-10, as an IBAN).
 */
export function leiProblem(lei: string): string | null {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(lei)) {
    return "LEI must be 20 characters: 18 upper-case letters or digits, then 2 check digits";
  }
  let rest = 0;
  for (const ch of lei) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1 ? null : "LEI check digits do not match (ISO 17442)";
}

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .check(z.trim())
    .check(z.minLength(1, { error: `${field} is required` }))
    .check(z.maxLength(max, { error: `${field} must be at most ${max} characters` }));
const country = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .check(z.regex(/^[A-Z]{2}$/, { error: `${field} must be a two-letter ISO 3166 country code such as DE` }));
/** A form's blank field is a value left out. */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = (field: string, max: number) => preprocess(blank, z.optional(text(field, max)));
const optionalCountry = (field: string) => preprocess(blank, z.optional(country(field)));
const listOf = <T extends z.core.SomeType>(item: T, field: string, max: number) =>
  z
    .array(item, { error: `${field} must be a list` })
    .check(z.minLength(1, { error: `${field} needs at least one entry` }))
    .check(z.maxLength(max, { error: `${field} holds at most ${max} entries` }));

export const naturalPersonNameIdSchema = z.object({
  primaryIdentifier: text("primaryIdentifier", 100),
  secondaryIdentifier: optionalText("secondaryIdentifier", 100),
  nameIdentifierType: z.enum(NATURAL_NAME_TYPES, {
    error: `nameIdentifierType must be one of ${NATURAL_NAME_TYPES.join(", ")}`,
  }),
});

export const addressSchema = z.object({
  addressType: z.enum(ADDRESS_TYPES, { error: `addressType must be one of ${ADDRESS_TYPES.join(", ")}` }),
  streetName: optionalText("streetName", 70),
  buildingNumber: optionalText("buildingNumber", 16),
  postCode: optionalText("postCode", 16),
  townName: text("townName", 35),
  countrySubDivision: optionalText("countrySubDivision", 35),
  country: country("country"),
});

export const nationalIdentificationSchema = z
  .object({
    nationalIdentifier: text("nationalIdentifier", 35),
    nationalIdentifierType: z.enum(NATIONAL_ID_TYPES, {
      error: `nationalIdentifierType must be one of ${NATIONAL_ID_TYPES.join(", ")}`,
    }),
    countryOfIssue: optionalCountry("countryOfIssue"),
  })
  .check(
    z.superRefine((v, ctx) => {
      const problem = v.nationalIdentifierType === "LEIX" ? leiProblem(v.nationalIdentifier) : null;
      if (problem) ctx.addIssue({ code: "custom", path: ["nationalIdentifier"], message: problem });
    }),
  );

/** An identification whose identifier was left blank (a form's empty LEI field) is none. */
const optionalIdentification = preprocess(
  (v) =>
    typeof v === "object" &&
    v !== null &&
    blank((v as { nationalIdentifier?: unknown }).nationalIdentifier) === undefined
      ? undefined
      : v,
  z.optional(nationalIdentificationSchema),
);

const pastDate = z
  .string({ error: "dateOfBirth is required" })
  .check(
    z.refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), {
      error: "dateOfBirth must be a date such as 1980-04-30",
    }),
  )
  .check(z.refine((v) => Date.parse(`${v}T00:00:00Z`) < Date.now(), { error: "dateOfBirth must be in the past" }));

export const naturalPersonSchema = z.object({
  name: z.object({ nameIdentifier: listOf(naturalPersonNameIdSchema, "nameIdentifier", 5) }),
  geographicAddress: z.optional(z.array(addressSchema).check(z.maxLength(3))),
  nationalIdentification: optionalIdentification,
  customerIdentification: optionalText("customerIdentification", 50),
  dateAndPlaceOfBirth: z.optional(z.object({ dateOfBirth: pastDate, placeOfBirth: text("placeOfBirth", 70) })),
  countryOfResidence: optionalCountry("countryOfResidence"),
});

export const legalPersonSchema = z.object({
  name: z.object({
    nameIdentifier: listOf(
      z.object({
        legalPersonName: text("legalPersonName", 100),
        legalPersonNameIdentifierType: z.enum(LEGAL_NAME_TYPES, {
          error: `legalPersonNameIdentifierType must be one of ${LEGAL_NAME_TYPES.join(", ")}`,
        }),
      }),
      "nameIdentifier",
      5,
    ),
  }),
  geographicAddress: z.optional(z.array(addressSchema).check(z.maxLength(3))),
  customerNumber: optionalText("customerNumber", 50),
  nationalIdentification: optionalIdentification,
  /** Required of an originator (originatorPersonSchema); a beneficiary or a VASP may be known without it. */
  countryOfRegistration: optionalCountry("countryOfRegistration"),
});

/** One person: exactly one of a natural person and a legal person. */
export const personSchema = z
  .object({ naturalPerson: z.optional(naturalPersonSchema), legalPerson: z.optional(legalPersonSchema) })
  .check(
    z.superRefine((v, ctx) => {
      if (!v.naturalPerson === !v.legalPerson) {
        ctx.addIssue({
          code: "custom",
          path: ["naturalPerson"],
          message: "a person is either a naturalPerson or a legalPerson (exactly one)",
        });
      }
    }),
  );
export type Ivms101Person = z.infer<typeof personSchema>;

/**
 * The originator's data the EU's Transfer of Funds Regulation asks for beyond the name (art. 14): a natural
 * person's address, official document number, customer identification, or date and place of birth.
 */
export const originatorPersonSchema = personSchema.check(
  z.superRefine((v, ctx) => {
    if (v.legalPerson && !v.legalPerson.countryOfRegistration) {
      ctx.addIssue({
        code: "custom",
        path: ["legalPerson", "countryOfRegistration"],
        message: "countryOfRegistration is required of an originator",
      });
    }
    const p = v.naturalPerson;
    if (p && !p.geographicAddress?.length && !p.nationalIdentification && !p.customerIdentification) {
      if (!p.dateAndPlaceOfBirth) {
        ctx.addIssue({
          code: "custom",
          path: ["naturalPerson", "geographicAddress"],
          message:
            "an originator who is a natural person needs an address, a national identification, a customer " +
            "identification, or a date and place of birth",
        });
      }
    }
  }),
);

/** A VASP as IVMS101 names one: a legal person, with its LEI (nationalIdentifierType LEIX) where known. */
export const vaspSchema = z.object({ legalPerson: legalPersonSchema });

export const beneficiarySchema = z.object({
  beneficiaryPersons: listOf(personSchema, "beneficiaryPersons", 10),
  accountNumber: z.optional(listOf(text("accountNumber", 128), "accountNumber", 10)),
});

/** IVMS101's IdentityPayload: what one VASP sends the other, and what Brokerdesk exports. */
export const identityPayloadSchema = z.object({
  originator: z.object({
    originatorPersons: listOf(originatorPersonSchema, "originatorPersons", 10),
    accountNumber: listOf(text("accountNumber", 128), "accountNumber", 10),
  }),
  beneficiary: z.object({
    beneficiaryPersons: listOf(personSchema, "beneficiaryPersons", 10),
    accountNumber: listOf(text("accountNumber", 128), "accountNumber", 10),
  }),
  originatingVASP: z.object({ originatingVASP: vaspSchema }),
  beneficiaryVASP: z.optional(z.object({ beneficiaryVASP: vaspSchema })),
});
export type IdentityPayload = z.infer<typeof identityPayloadSchema>;

/** The person's name as one line: "primary, secondary" of the first name, or the legal person's name. */
export function personName(p: Ivms101Person): string {
  const natural = p.naturalPerson?.name.nameIdentifier[0];
  if (natural) return [natural.primaryIdentifier, natural.secondaryIdentifier].filter(Boolean).join(", ");
  return p.legalPerson?.name.nameIdentifier[0]?.legalPersonName ?? "";
}

/** A VASP as a legal person, from its name, its LEI (if known) and its country of registration. */
export function vaspPerson(name: string, lei: string | undefined, countryOfRegistration: string | undefined) {
  return {
    legalPerson: {
      name: { nameIdentifier: [{ legalPersonName: name, legalPersonNameIdentifierType: "LEGL" as const }] },
      ...(lei ? { nationalIdentification: { nationalIdentifier: lei, nationalIdentifierType: "LEIX" as const } } : {}),
      ...(countryOfRegistration ? { countryOfRegistration } : {}),
    },
  };
}
