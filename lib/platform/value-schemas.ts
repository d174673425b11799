// Field builders over ./values that zod/mini leaves to the app (`preprocess`) or that several schemas share
// (`positiveDecimal`). Kept apart from ./values so that browser code reading plain values loads no zod.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { AMOUNT_MAX_INTEGER_DIGITS, DECIMAL } from "./values";

/**
 * A positive decimal amount, as a string (never a float), exactly as sent: one rule, no whitespace anywhere
 * (" 1" and "1\n" are refused as "1 000" is, rather than trimmed into something else), and at most
 * AMOUNT_MAX_INTEGER_DIGITS digits before the point.
 */
export const positiveDecimal = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .check(z.minLength(1, { error: `${field} is required`, abort: true }))
    .check(
      z.refine((v) => !/\s/.test(v), {
        error: `${field} must be a decimal number such as 12.5, without spaces or line breaks`,
        abort: true,
      }),
    )
    .check(z.refine((v) => DECIMAL.test(v), { error: `${field} must be a decimal number such as 12.5`, abort: true }))
    .check(
      z.refine((v) => v.split(".")[0]!.length <= AMOUNT_MAX_INTEGER_DIGITS, {
        error: `${field} must have at most ${AMOUNT_MAX_INTEGER_DIGITS} digits before the decimal point`,
        abort: true,
      }),
    )
    .check(z.refine((v) => !/^0(?:\.0+)?$/.test(v), { error: `${field} must be greater than 0` }));

/**
 * Classic zod's `z.preprocess`, which zod/mini leaves out: the same pipe (the function, then the schema),
 * typed as classic types it, so a key whose schema is optional stays optional in the input type.
 */
export function preprocess<U extends z.core.$ZodType>(fn: (raw: unknown) => unknown, schema: U): ZodMiniPreprocess<U> {
  return z.pipe(z.transform(fn), schema) as unknown as ZodMiniPreprocess<U>;
}
export type ZodMiniPreprocess<U extends z.core.SomeType> = z.ZodMiniType<
  z.core.output<U>,
  unknown,
  z.core.$ZodPreprocessInternals<U, unknown>
>;
