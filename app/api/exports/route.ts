import type { NextRequest } from "next/server";
import { catalog } from "@/lib/platform/catalog";
import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import {
  EXPORTABLE_OPERATIONS, exportRequestSchema, exportResponse, isExportableOperation, type ExportableOperation,
} from "@/server/workflows/exports";

// An export needs the permission of the operation it walks (deposits.read for deposits.list, ...).
// Rather than a stand-in base permission plus a second check inside, there is one wrapped handler per
// operation, picked by the body's `operation`: the wrapper checks that operation's own permission first,
// as on every route, and audits a refusal the same way. The wrapper then parses the same body in full.
const byOperation = Object.fromEntries(
  EXPORTABLE_OPERATIONS.map((operation) => [
    operation,
    apiRoute({ permission: catalog[operation].permission, input: exportRequestSchema }, async ({ session, input, db, requestId, ip, req }) => {
      const { client } = await getPlatform();
      return exportResponse({
        db, client, operation: input.operation, params: input.params, key: input.key,
        actor: { email: session.email, role: session.role }, requestId, ip, signal: req.signal,
      });
    }),
  ]),
) as Record<ExportableOperation, ReturnType<typeof apiRoute>>;

async function peekOperation(req: NextRequest): Promise<unknown> {
  const body: unknown = await req.clone().json().catch(() => null);
  return body && typeof body === "object" ? (body as { operation?: unknown }).operation : undefined;
}

export async function POST(req: NextRequest, ctx: Parameters<ReturnType<typeof apiRoute>>[1]): Promise<Response> {
  const operation = await peekOperation(req);
  // An unknown operation still goes through a wrapper (401/403 first), whose input check then refuses it (422).
  return byOperation[isExportableOperation(operation) ? operation : EXPORTABLE_OPERATIONS[0]](req, ctx);
}
