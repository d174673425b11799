import "server-only";
// `npm run user:add -- --email a@b.c --role admin [--name "Ada L."] [--password-stdin]`: creates one staff
// user. How the first admin of a live deployment comes to exist. Without --password-stdin a strong random
// password is generated and printed once. With the embedded database, stop the app first: PGlite is
// one process's database folder.
import { env } from "@/lib/env";
import { ROLES, isRole } from "@/lib/rbac";
import { DomainError } from "@/lib/api/errors";
import { withAudit } from "@/server/audit";
import { generatePassword } from "@/server/auth/passwords";
import { createUser } from "@/server/auth/users";
import { getDb } from "@/server/db";

const USAGE =
  `usage: npm run user:add -- --email <e-mail> --role <${ROLES.join("|")}> ` + `[--name "<name>"] [--password-stdin]`;

type Args = { email: string; role: string; name: string | null; passwordStdin: boolean };

function parseArgs(argv: string[]): Args | string {
  const out: Partial<Args> = { name: null, passwordStdin: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--email") out.email = value();
    else if (flag === "--role") out.role = value();
    else if (flag === "--name") out.name = value() ?? null;
    else if (flag === "--password-stdin") out.passwordStdin = true;
    else if (flag === "--help" || flag === "-h") return USAGE;
    else return `unknown argument: ${arg}\n${USAGE}`;
  }
  if (!out.email) return `--email is required\n${USAGE}`;
  if (!out.role || !isRole(out.role)) return `--role must be one of ${ROLES.join(", ")}\n${USAGE}`;
  return out as Args;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  // One trailing newline (from echo or a file) is not part of the password.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    console.error(args);
    return 2;
  }
  const password = args.passwordStdin ? await readStdin() : generatePassword();
  const db = await getDb();
  try {
    // Fail-closed like the API: no intent row, no user.
    const user = await withAudit(
      db,
      { actor: "cli:user-add", action: "users.create", target: args.email.trim().toLowerCase() },
      { email: args.email, role: args.role, name: args.name, mode: env.mode },
      () =>
        createUser(
          db,
          { email: args.email, role: args.role as (typeof ROLES)[number], name: args.name, password },
          { actor: "npm run user:add" },
        ),
      (u) => ({ id: u.id, role: u.role }),
    );
    console.log(`created ${user.role} ${user.email} (id ${user.id}, ${db.engine} database, ${env.mode} mode)`);
    if (!args.passwordStdin) {
      console.log(`password (shown once, store it now): ${password}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof DomainError) {
      const fields = Object.entries(e.fieldErrors ?? {}).map(([f, msgs]) => `  ${f}: ${msgs.join("; ")}`);
      console.error([`refused: ${e.message}`, ...fields].join("\n"));
      return 1;
    }
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
