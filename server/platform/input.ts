import "server-only";
import { keyRefusal, type Operation } from "@/lib/platform/catalog";
import type { KeyRole } from "@/lib/platform/define-endpoint";
import { PlatformRequestInvalidError } from "./errors";

/**
 * A call's input checked before anything is sent: the operation's request schema, then what the chosen key
 * may do (its role, its name's limits). Every refused field is named; fields left empty are not sent.
 */
export function checkInput(
  op: Operation,
  input: unknown,
  credential: { name: string; role: KeyRole } | undefined,
): Record<string, unknown> {
  const role = credential?.role;
  const parsed = op.request.safeParse(input);
  const fieldErrors: Record<string, string[]> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "_");
      (fieldErrors[field] ??= []).push(issue.message);
    }
    throw new PlatformRequestInvalidError(op.id, fieldErrors);
  }
  const extra = op.keyRule && role ? op.keyRule(parsed.data as never, role) : {};
  for (const [field, message] of Object.entries(extra)) fieldErrors[field] = [message];
  const refused = credential && keyRefusal(op, credential.role, credential.name);
  if (refused) fieldErrors.key = [refused];
  if (Object.keys(fieldErrors).length) throw new PlatformRequestInvalidError(op.id, fieldErrors);
  return Object.fromEntries(
    Object.entries(parsed.data as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== ""),
  );
}
