import "server-only";
// What the route wrapper refuses of any input before a resource's own schema reads it: a query
// parameter given twice, a NUL character anywhere, and path parameters that cannot name anything. One place,
// so no route, schema or database query ever meets them (a NUL made PostgreSQL fail with a 500).
import type { FieldErrors } from "@/lib/api/errors";

/** Longer than any id Brokerdesk hands out (UUIDs are 36 characters, UIDs at most 32 digits). */
export const PATH_PARAM_MAX = 128;

const NUL = "\u0000";
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A field name as it may be said back: a NUL in a key is shown, not sent raw. */
const fieldName = (key: string) => key.replaceAll(NUL, "\\u0000");

/**
 * The query string as one value per name. A name given more than once is a problem on that name: which
 * value would count is a guess (the last one used to win), so neither does.
 */
export function readQuery(params: URLSearchParams): { query: Record<string, string>; problems: FieldErrors | null } {
  const query: Record<string, string> = {};
  const problems: FieldErrors = {};
  for (const [name, value] of params) {
    if (Object.hasOwn(query, name)) {
      problems[fieldName(name)] = [`${fieldName(name)} is given more than once; send it once`];
      continue;
    }
    query[name] = value;
  }
  return { query, problems: Object.keys(problems).length ? problems : null };
}

/**
 * Every string of an input (query, JSON body at any depth, keys too) checked for NUL, named by the
 * top-level field it sits in ("_" for a body that is not an object).
 */
export function nulProblems(raw: unknown): FieldErrors | null {
  const problems: FieldErrors = {};
  const say = (field: string) => (problems[field] = [`${field} must not contain a NUL character (\\u0000)`]);
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) {
      if (key.includes(NUL) || holdsNul(value)) say(fieldName(key));
    }
  } else if (holdsNul(raw)) {
    say("_");
  }
  return Object.keys(problems).length ? problems : null;
}

function holdsNul(value: unknown): boolean {
  // Iterative: a deeply nested body must not exhaust the stack.
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes(NUL)) return true;
    } else if (Array.isArray(v)) {
      stack.push(...v);
    } else if (v !== null && typeof v === "object") {
      for (const [k, inner] of Object.entries(v)) {
        if (k.includes(NUL)) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

/** Path parameters (decoded) that cannot name anything Brokerdesk keeps: too long, or holding control characters. */
export function pathParamProblems(params: Readonly<Record<string, string>>): FieldErrors | null {
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(params)) {
    if (value.length > PATH_PARAM_MAX) problems[name] = [`${name} must be at most ${PATH_PARAM_MAX} characters`];
    else if (CONTROL.test(value)) problems[name] = [`${name} must not contain control characters`];
  }
  return Object.keys(problems).length ? problems : null;
}
