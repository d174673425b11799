import "server-only";
// Why a session ended, when the account's own change ended it (an admin disabled it, reset its password,
// changed its role): the sign-in page says so, instead of an unexplained sign-in form. Read from the dead
// session cookie while it is still there (a page's redirect to sign-in), or from a short note set when
// next-auth's session endpoint finds the session ended (the browser's activity check), since next-auth
// clears the session cookie in that answer.
import { env } from "@/lib/env";
import { getDb } from "@/server/db";
import { authOptions } from "./options";
import { parseStaffClaims } from "./session-rules";
import { decodeSessionJwt, sessionCookieName, sessionTokenFrom } from "./session-token";
import { findSessionUser } from "./users";

export const SESSION_ENDS = ["disabled", "password-reset", "changed"] as const;
export type SessionEnd = (typeof SESSION_ENDS)[number];

/** The note's cookie: read only by the sign-in page, for a few minutes. */
export const SESSION_ENDED_COOKIE = "brokerdesk-session-ended";
const NOTE_SECONDS = 300;

const cookieName = sessionCookieName(authOptions.useSecureCookies ?? false);

/** Why the session in these cookies was ended by a change to its account; null when it was not (or there is none). */
export async function sessionEndOf(cookies: Iterable<{ name: string; value: string }>): Promise<SessionEnd | null> {
  const list = [...cookies];
  const note = list.find((c) => c.name === SESSION_ENDED_COOKIE)?.value;
  if ((SESSION_ENDS as readonly string[]).includes(note ?? "")) return note as SessionEnd;
  const token = sessionTokenFrom(list, cookieName);
  if (!token) return null;
  try {
    const decoded = await decodeSessionJwt({ token, secret: env.nextAuthSecret });
    const claims = decoded ? parseStaffClaims(decoded) : null;
    if (!claims) return null;
    const row = await findSessionUser(await getDb(), claims.uid, claims.jti);
    if (!row || row.signedOut) return null;
    if (row.disabled) return "disabled";
    if (row.sessionVersion !== claims.sv) return row.mustChangePassword ? "password-reset" : "changed";
    return null;
  } catch {
    // Not readable, or the database not answering: the sign-in page then says nothing extra.
    return null;
  }
}

type Handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

/** next-auth's route, with the note added when its session endpoint finds the session ended. */
export function withSessionEndNote(handler: Handler): Handler {
  return async (req, ctx) => {
    const res = await handler(req, ctx);
    if (req.method !== "GET" || !new URL(req.url).pathname.endsWith("/session")) return res;
    const hadToken = sessionTokenFrom(cookiesOf(req), cookieName) !== null;
    if (
      !hadToken ||
      (
        await res
          .clone()
          .json()
          .catch(() => null)
      )?.user
    )
      return res;
    const ended = await sessionEndOf(cookiesOf(req));
    if (!ended) return res;
    const out = new Response(res.body, res);
    out.headers.append(
      "Set-Cookie",
      `${SESSION_ENDED_COOKIE}=${ended}; Path=/login; Max-Age=${NOTE_SECONDS}; HttpOnly; SameSite=Lax`,
    );
    return out;
  };
}

function cookiesOf(req: Request): { name: string; value: string }[] {
  return (req.headers.get("cookie") ?? "").split(/;\s*/).flatMap((part) => {
    const i = part.indexOf("=");
    if (i <= 0) return [];
    try {
      return [{ name: part.slice(0, i), value: decodeURIComponent(part.slice(i + 1)) }];
    } catch {
      return [];
    }
  });
}
