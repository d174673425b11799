import "server-only";
// `npm run lists:import -- <file> [--format sdn|csv|ftm] [--list <name>] [--published YYYY-MM-DD] [--by <who>]`:
// imports a sanctions or block list into the configured database (DATABASE_URL, else the embedded one in
// DATA_DIR) as a new version of its list, in the audit chain. The format is sniffed from the file's first
// characters when not given; the list is the format's own (ofac-sdn, own-blocklist, opensanctions) unless
// named. A version that removes any address the list's active version lists waits for a second person (confirmed
// on the /screening page), and the command says so. A file that fails to parse changes nothing and the command
// says where it failed (exit 1). With the
// embedded database, stop the app first.
import { createReadStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LIST_FORMATS, LIST_NAME, type ListFormatName } from "@/lib/api/screening/words";
import { getDb } from "@/server/db";
import { importListAudited, ListParseError } from "@/server/screening";
import { runCli } from "./run";

const USAGE =
  "usage: npm run lists:import -- <file> [--format sdn|csv|ftm] [--list <name>] [--published YYYY-MM-DD] [--by <who>]";

type Args = { file: string; format?: ListFormatName; list?: string; published?: Date; by: string };

export function parseListsImportArgs(argv: string[]): Args | string {
  const out: Partial<Args> = { by: `cli:${os.userInfo().username}` };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") continue;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? "";
    if (flag === "--format") {
      const f = value();
      if (!(LIST_FORMATS as readonly string[]).includes(f)) return `--format must be one of ${LIST_FORMATS.join(", ")}`;
      out.format = f as ListFormatName;
    } else if (flag === "--list") {
      const l = value();
      if (!LIST_NAME.test(l)) return "--list must be lower-case letters, digits and dashes (at most 40)";
      out.list = l;
    } else if (flag === "--published") {
      const d = value();
      const at = new Date(`${d}T00:00:00Z`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(at.getTime())) return "--published must be YYYY-MM-DD";
      out.published = at;
    } else if (flag === "--by") {
      const b = value().trim();
      if (!b || b.length > 200) return "--by must be 1 to 200 characters";
      out.by = b;
    } else if (flag === "--help" || flag === "-h") return USAGE;
    else if (arg.startsWith("--")) return `unknown option: ${arg}\n${USAGE}`;
    else if (out.file) return `one file at a time\n${USAGE}`;
    else out.file = arg;
  }
  if (!out.file) return USAGE;
  return out as Args;
}

async function main(): Promise<number> {
  const args = parseListsImportArgs(process.argv.slice(2));
  if (typeof args === "string") {
    console.error(args);
    return 2;
  }
  const db = await getDb();
  const started = Date.now();
  try {
    const v = await importListAudited(
      db,
      createReadStream(args.file, { highWaterMark: 1 << 20 }),
      {
        format: args.format,
        list: args.list,
        publishedAt: args.published ?? null,
        fileName: path.basename(args.file).slice(0, 200),
        importedBy: args.by,
      },
      {},
    );
    const counts = Object.entries(v.counts)
      .map(([asset, n]) => `${asset} ${n}`)
      .join(", ");
    const state =
      v.state === "waiting"
        ? `WAITING for a second person: it removes ${v.removedCount} address(es) the active version lists, so ` +
          "it is not used until someone other than its importer confirms it on the /screening page"
        : `now active (${v.addedCount ?? 0} added), a rescreen is queued for the app's job engine`;
    console.log(
      `imported ${args.file} as version ${v.id} of ${v.list} (${v.format}), ${state}: ${v.addressCount} ` +
        `addresses (${counts}), published ${v.publishedAt ?? "(not said)"}, sha256 ${v.sha256}, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s, ${db.engine} database`,
    );
    return 0;
  } catch (e) {
    if (e instanceof ListParseError) {
      console.error(`refused: ${args.file}: ${e.message}; nothing was imported, the active version is unchanged`);
      return 1;
    }
    throw e;
  } finally {
    await db.close();
  }
}

runCli("lists import", main);
