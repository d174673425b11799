import "server-only";
// The sanctions and block lists for the /screening page and its routes: an uploaded file imported as a new version
// (streamed from the request's body, never read whole), the versions, and the lookup. A file that does not parse,
// is empty or too large is refused on the field "file", saying where it failed, and nothing changes.
import { invalidField } from "@/lib/api/errors";
import { LIST_UPLOAD_MAX_BYTES } from "@/lib/api/screening/words";
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import {
  importList,
  ListParseError,
  ListTooLargeError,
  listVersions,
  removedAddresses,
  screenAddress,
  type ListFormat,
  type ListVersion,
  type ScreeningResult,
} from "@/server/screening";

export type UploadInput = { format?: ListFormat; list?: string; fileName?: string; publishedAt?: Date };

/** How many of the addresses a waiting version drops the page shows. */
const REMOVED_SAMPLE = 20;

const tooLarge = () => invalidField("file", `file must be at most ${LIST_UPLOAD_MAX_BYTES / 2 ** 20} MiB`);

export async function importUploadedList(
  db: Db,
  session: StaffSession,
  intentId: number | null,
  req: Request,
  input: UploadInput,
  maxBytes = LIST_UPLOAD_MAX_BYTES,
): Promise<ListVersion> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw tooLarge();
  if (!req.body || declared === 0) throw invalidField("file", "file is required: send the list as the body");
  try {
    return await importList(db, req.body as unknown as AsyncIterable<Uint8Array>, {
      format: input.format,
      list: input.list,
      fileName: input.fileName ?? null,
      publishedAt: input.publishedAt ?? null,
      importedBy: session.email,
      auditIntentId: intentId,
      maxBytes,
    });
  } catch (e) {
    if (e instanceof ListParseError) throw invalidField("file", `file does not parse: ${e.message}`);
    if (e instanceof ListTooLargeError) throw tooLarge();
    throw e;
  }
}

/** Every version; a waiting one with the first addresses it drops against its list's active version. */
export async function screeningVersions(db: Db): Promise<{ versions: (ListVersion & { removedSample?: string[] })[] }> {
  const versions = await listVersions(db);
  const active = new Map(versions.filter((v) => v.active).map((v) => [v.list, v.id]));
  return {
    versions: await Promise.all(
      versions.map(async (v) => {
        const from = active.get(v.list);
        if (v.state !== "waiting" || from === undefined) return v;
        return { ...v, removedSample: await removedAddresses(db, v.id, from, REMOVED_SAMPLE) };
      }),
    ),
  };
}

export function lookupAddress(db: Db, input: { address: string; at?: Date }): Promise<ScreeningResult> {
  return screenAddress(db, input.address, input.at);
}
