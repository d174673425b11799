// The envelope the proxy answers an operation with, as a schema: the proxy's entries (./platform) declare it, and
// the browser (lib/client/platform.ts) loads it with its first call to the platform. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";

/** The platform's envelope as the proxy answers it; `data` was parsed (and its quirks normalised) by the catalog. */
export const proxyEnvelopeSchema = z.object({
  code: z.literal("00000"),
  msg: z.string(),
  requestTime: z.number(),
  data: z.unknown(),
});
