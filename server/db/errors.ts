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
