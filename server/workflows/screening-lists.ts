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
  screenAddress,
  type ListFormat,
  type ListVersion,
  type ScreeningResult,
} from "@/server/screening";

export type UploadInput = { format?: ListFormat; list?: string; fileName?: string; publishedAt?: Date };

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

export async function screeningVersions(db: Db): Promise<{ versions: ListVersion[] }> {
  return { versions: await listVersions(db) };
}

export function lookupAddress(db: Db, input: { address: string; at?: Date }): Promise<ScreeningResult> {
  return screenAddress(db, input.address, input.at);
}
