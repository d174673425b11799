import "server-only";
import pino from "pino";
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

export const logger = pino({
  level: env.nodeEnv === "test" && env.logLevel === "info" ? "warn" : env.logLevel,
  base: { app: "brokerdesk" },
  redact: { paths: REDACT, censor: "[redacted]" },
});
