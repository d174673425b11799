import "server-only";

/** The database was used after close(). */
export class DbClosedError extends Error {
  readonly code = "DB_CLOSED";
  constructor() {
    super("database is closed");
    this.name = "DbClosedError";
  }
}

/**
 * The outer Db was used inside its own transaction callback. On PGlite (one connection) that would wait
 * for the transaction to end, forever; on PostgreSQL it would silently run outside the transaction.
 * Both are bugs, so both engines refuse alike: use the `tx` handed to the callback.
 */
export class DbMisuseError extends Error {
  readonly code = "DB_MISUSE";
  constructor() {
    super("Db used inside its own transaction(): use the tx passed to the callback");
    this.name = "DbMisuseError";
  }
}

// Connection-level failures: the server refused or dropped the connection, or none could be had in time.
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);
const UNREACHABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended unexpectedly",
];

/**
 * Whether a failure means the database cannot be reached (PostgreSQL down, restarting or cut off), as opposed
 * to a statement it refused: a connection error, SQLSTATE class 08 (connection exception), or 57P01–57P03
 * (shut down, crash recovery, not accepting connections yet). Looks through `cause` (an audit write failure).
 */
export function isDatabaseUnreachable(e: unknown): boolean {
  for (let err = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const { code, message } = err as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || /^08|^57P0[123]$/.test(code))) return true;
    if (typeof message === "string" && UNREACHABLE_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
