"use client";
// Apart from form.tsx so that a page whose forms need no schema (the staff admin, the account page) does not
// load the zod resolver with the field wiring (page weight).
import { useForm, type DefaultValues, type FieldValues } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type * as z from "zod/mini";
import { inStaffWords } from "./form";

/**
 * A form checked by the schema it shares with the server, its messages in staff's words. `shouldFocusError:
 * false` where focusFirstError puts the focus (in the form's order, not react-hook-form's registration order).
 */
export function useSchemaForm<I extends FieldValues, O>(
  schema: z.ZodMiniType<O, I>,
  defaultValues: DefaultValues<I>,
  shouldFocusError = true,
) {
  return useForm<I, unknown, O>({ resolver: inStaffWords(zodResolver(schema)), shouldFocusError, defaultValues });
}
