import type { z } from "zod";
import { openapiDocument } from "@/lib/api/openapi";
import { openapiResource, type openapiDocumentSchema } from "@/lib/api/openapi-resource";
import { apiRoute } from "@/server/http/api-route";
import pkg from "@/package.json";

// The generator's document types have no index signatures; the answer is still parsed with the entry's schema.
export const GET = apiRoute(
  openapiResource,
  async () => openapiDocument(pkg.version) as z.input<typeof openapiDocumentSchema>,
);
