import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "./define-resource";

/** The body of GET /api/health; parsed by the browser, produced by the route. */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  mode: z.enum(["simulator", "live"]),
  version: z.string(),
  checkedAt: z.string(),
  platform: z.object({
    reachable: z.boolean(),
    latencyMs: z.nullable(z.number()),
    code: z.nullable(z.string()),
    message: z.nullable(z.string()),
  }),
  // Whether Brokerdesk's own database answers; a code only (a connection error would name its address).
  database: z.object({
    reachable: z.boolean(),
    latencyMs: z.nullable(z.number()),
    code: z.nullable(z.string()),
  }),
});
export type Health = z.infer<typeof healthSchema>;

export const healthResource = defineResource({
  id: "health.get",
  method: "GET",
  path: "/api/health",
  summary: "Liveness, and whether the platform and the database answer (no session; nothing secret, no addresses)",
  permission: "public",
  output: healthSchema,
  errors: [],
});
