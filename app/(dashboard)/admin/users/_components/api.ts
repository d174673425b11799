import { z } from "zod";

// The browser's view of /api/admin/users (STYLE rule 3: the browser parses the reply too).
export const ROLE_OPTIONS = ["compliance", "broker", "lead", "admin"] as const;

export const staffUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(ROLE_OPTIONS),
  disabled: z.boolean(),
  hasPassword: z.boolean(),
  sessionVersion: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffUserView = z.infer<typeof staffUserSchema>;

const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), fieldErrors: z.record(z.string(), z.array(z.string())).optional() }),
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function callApi<S extends z.ZodType>(url: string, schema: S, init?: { method: "POST" | "PATCH"; body: unknown }): Promise<z.output<S>> {
  const res = await fetch(url, {
    method: init?.method ?? "GET",
    cache: "no-store",
    headers: init ? { "Content-Type": "application/json" } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = errorSchema.safeParse(body);
    if (err.success) throw new ApiError(res.status, err.data.error.code, err.data.error.message, err.data.error.fieldErrors);
    throw new ApiError(res.status, "http_error", `The server answered ${res.status}`);
  }
  return schema.parse(body);
}

export const usersListSchema = z.object({ users: z.array(staffUserSchema) });
export const userReplySchema = z.object({ user: staffUserSchema });

/** "YYYY-MM-DD HH:mm UTC", the one time format of the staff pages. */
export function formatUtc(iso: string | null): string {
  if (!iso) return "never";
  const d = new Date(iso).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}
