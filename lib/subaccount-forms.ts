// The sub-account forms' schemas, shared by the browser (react-hook-form) and the API routes, and the
// browser's parse of the registry replies (STYLE rules 3 and 12: one schema on both sides).
import { z } from "zod";
import { catalog } from "@/lib/platform/catalog";

/** E6's own request schema: the form validates exactly what the platform client will send. */
export const createSubaccountSchema = catalog["subaccounts.create"].request;
export type CreateSubaccountValues = z.input<typeof createSubaccountSchema>;

/** Same rule as E6's label ("length below 20"), so a label added by UID could also have been created. */
export const LABEL_MAX = 19;

/** "Add by UID": a sub-account created elsewhere, checked against the platform (E2) before it is recorded. */
export const addSubaccountSchema = z.object({
  subUid: z
    .string({ error: "subUid is required" })
    .trim()
    .min(1, { error: "subUid is required" })
    .regex(/^\d{1,32}$/, { error: "subUid must be a numeric UID" }),
  label: z
    .string({ error: "label must be a string" })
    .trim()
    .max(LABEL_MAX, { error: "label must be shorter than 20 characters" })
    .optional()
    // An empty field means no label, not an empty one.
    .transform((v) => (v ? v : undefined)),
});
export type AddSubaccountValues = z.input<typeof addSubaccountSchema>;

export const REGISTRY_SOURCES = ["created", "added", "simulator-seed"] as const;

/** A registry entry as /api/sub-accounts sends it (times: platform ms string, Brokerdesk ISO). */
export const registryEntrySchema = z.object({
  subUid: z.string(),
  subaccountName: z.string().nullable(),
  label: z.string().nullable(),
  status: z.string(),
  permList: z.array(z.string()),
  source: z.enum(REGISTRY_SOURCES),
  platformCTime: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type RegistryEntryView = z.output<typeof registryEntrySchema>;

export const registryListSchema = z.object({ items: z.array(registryEntrySchema) });
export const registryEntryReplySchema = z.object({ entry: registryEntrySchema });
