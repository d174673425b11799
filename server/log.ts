import "server-only";
import pino, { type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";
import { env } from "@/lib/env";

// Secrets never reach a log line: redact by key name anywhere in a logged object.
const REDACT = [
  "apiKey",
  "apiSecret",
  "passphrase",
  "secret",
  "password",
  "token",
  "*.apiKey",
  "*.apiSecret",
  "*.passphrase",
  "*.secret",
  "*.password",
  "*.token",
  'headers["access-key"]',
  'headers["access-sign"]',
  'headers["access-passphrase"]',
  'headers["ACCESS-KEY"]',
  'headers["ACCESS-SIGN"]',
  'headers["ACCESS-PASSPHRASE"]',
  "headers.cookie",
  "headers.authorization",
];

const OPTIONS: LoggerOptions = {
  level: env.nodeEnv === "test" && env.logLevel === "info" ? "warn" : env.logLevel,
  base: { app: "brokerdesk" },
  redact: { paths: REDACT, censor: "[redacted]" },
};

/** Where log lines go, and whether a person reads them there (a terminal) or a program does (a file, a pipe). */
export type LogOutput = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * JSON lines for files, pipes and log shippers; pino-pretty's one line per entry (time, level, message, then the
 * fields) when a person reads a terminal. Redaction happens before either is written, so both are free of secrets.
 */
export function createLogger(out: LogOutput = process.stdout, level = OPTIONS.level): Logger {
  const options = { ...OPTIONS, level };
  if (!out.isTTY) return out === process.stdout ? pino(options) : pino(options, out);
  return pino(
    options,
    pretty({
      destination: out,
      sync: true,
      colorize: true,
      singleLine: true,
      translateTime: "UTC:yyyy-mm-dd HH:MM:ss.l'Z'",
      ignore: "pid,hostname,app",
    }),
  );
}

export const logger = createLogger();
