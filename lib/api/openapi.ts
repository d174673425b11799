// The OpenAPI 3.1 description of Brokerdesk's API, generated from the resource entries (never written by
// hand): paths, parameters, request bodies and answers from the entries' zod schemas (zod-openapi, on zod 4's
// own JSON Schema), the error answers from each entry's codes, and who may call from its permission.
// Served at /api/openapi.json; never imported by a page (the browser has no use for the generator).
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import { allResources } from "./";
import { auditActionOf, type Resource } from "./define-resource";
import { errorBodySchema } from "./error-body";
import { COMMON_ERRORS, ERROR_STATUS, MUTATION_ERRORS, type ErrorCode } from "./errors";

const SESSION = "session";

/**
 * The codes a route may answer: its own, the common ones, and CSRF for writes (public routes: none of the wrapper's).
 */
export function answeredCodes(resource: Resource): ErrorCode[] {
  const wrapper: readonly ErrorCode[] =
    resource.permission === "public" ? ["invalid_input", "internal"] : COMMON_ERRORS;
  const writes: readonly ErrorCode[] = resource.method === "GET" ? [] : MUTATION_ERRORS;
  return [...new Set([...wrapper, ...writes, ...resource.errors])];
}

function permissionText(resource: Resource): string {
  const p = resource.permission;
  if (p === "public") return "anyone (no session)";
  if (p === "signed-in") return "any signed-in staff";
  if (typeof p === "string") return `staff whose role grants \`${p}\``;
  return `staff whose role grants ${p.describe}`;
}

function successResponse(resource: Resource): ZodOpenApiResponseObject {
  if (resource.reply === "csv") {
    return {
      description: "A CSV file (RFC 4180, formula cells neutralised); one line per row of the schema below",
      content: { "text/csv": { schema: { type: "string" } } },
      headers: {
        "Content-Disposition": {
          schema: { type: "string" },
          description: 'attachment; filename="<kind>_<whose>_<from day>_<to day>.csv" (UTC days)',
        },
      },
    };
  }
  if (resource.reply === "html") {
    return {
      description: "A self-contained HTML file (no external assets, print styles), sent as an attachment",
      content: { "text/html": { schema: { type: "string" } } },
    };
  }
  if (resource.reply === "json-file") {
    return {
      description: "A JSON file of the schema below, sent as an attachment",
      content: { "application/json": { schema: resource.output } },
    };
  }
  if (resource.reply === "ndjson") {
    return {
      description: "A stream of events, one JSON object per line",
      content: { "application/x-ndjson": { schema: resource.output } },
    };
  }
  return { description: "Success", content: { "application/json": { schema: resource.output } } };
}

function errorResponses(resource: Resource): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of answeredCodes(resource))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        {
          description: `error.code: ${codes.join(", ")}`,
          content: { "application/json": { schema: errorBodySchema } },
        },
      ]),
  );
}

function operation(resource: Resource): ZodOpenApiOperationObject {
  const names = [...resource.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const path = names.length ? z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) : undefined;
  const upload = resource.body === "upload";
  const query = (resource.method === "GET" || upload) && resource.input ? (resource.input as z.ZodObject) : undefined;
  const body = resource.method !== "GET" && !upload && resource.input ? resource.input : undefined;
  const action = resource.method === "GET" ? null : auditActionOf(resource, {});
  return {
    operationId: resource.path.startsWith("/api/platform/") ? `platform.${resource.id}` : resource.id,
    summary: resource.summary,
    description: [
      `Who may call: ${permissionText(resource)}.`,
      action
        ? `Audited fail-closed: an intent row (action \`${action}\`) before anything is done, an outcome row after.`
        : null,
      resource.freshFactor
        ? `Second factor: an account that has one must have verified it within ` +
          `MFA_FRESH_SECONDS${typeof resource.freshFactor === "function" ? " (for some inputs)" : ""}, else ` +
          `401 \`mfa_stale\`.`
        : null,
      resource.factorStep ? "Also callable while the session waits for its second factor (the factor step)." : null,
    ]
      .filter(Boolean)
      .join(" "),
    tags: [resource.path.startsWith("/api/platform/") ? "platform proxy" : resource.id.split(".")[0]!],
    security: resource.permission === "public" ? [] : [{ [SESSION]: [] }],
    ...(path || query ? { requestParams: { ...(path ? { path } : {}), ...(query ? { query } : {}) } } : {}),
    ...(body ? { requestBody: { content: { "application/json": { schema: body } } } } : {}),
    ...(upload
      ? { requestBody: { content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } } } }
      : {}),
    responses: { "200": successResponse(resource), ...errorResponses(resource) },
  };
}

/** The document, generated afresh from the entries. */
export function openapiDocument(version: string): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const resource of allResources()) {
    paths[resource.path] = { ...paths[resource.path], [resource.method.toLowerCase()]: operation(resource) };
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Brokerdesk",
        version,
        description:
          "Brokerdesk's own API (withdrawals, sub-account registry, risk units, audit log, staff, exports, " +
          "health) and its proxy of the platform's operations. Generated from lib/api.",
      },
      components: {
        securitySchemes: {
          [SESSION]: {
            type: "apiKey",
            in: "cookie",
            name: "next-auth.session-token",
            description:
              "A staff session (sign in at /login); writes also need a same-origin Origin header and a JSON body",
          },
        },
      },
      paths,
    },
    // Schemas whose input cannot be said in JSON Schema (a transform's input) are rendered as "any value".
    { allowEmptySchema: { custom: true, transform: true, pipe: true } },
  );
}
