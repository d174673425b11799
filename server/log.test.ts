import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, type LogOutput } from "./log";

/** A stream that keeps what is written to it, told to say it is (or is not) a terminal. */
function output(isTTY: boolean): { out: LogOutput; text: () => string } {
  const out: LogOutput = Object.assign(new PassThrough(), { isTTY });
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  return { out, text: () => Buffer.concat(chunks).toString("utf8") };
}

const SECRET = "s3cr3t-never-logged";
/** Colours are escape sequences around the level; the words between them are what a person reads. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

describe("[log] lines for a program, lines for a person", () => {
  it("[log][json] writes one JSON object per line when the output is not a terminal, secrets redacted", async () => {
    const { out, text } = output(false);
    createLogger(out, "info").info(
      { apiSecret: SECRET, key: { passphrase: SECRET }, uid: "101" },
      "platform client ready",
    );
    await new Promise((r) => setImmediate(r));
    const lines = text().trim().split("\n");
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ msg: "platform client ready", level: 30, app: "brokerdesk", uid: "101" });
    expect(entry.apiSecret).toBe("[redacted]");
    expect(text()).not.toContain(SECRET);
  });

  it("[log][pretty] writes a readable line with the time in UTC when the output is a terminal, secrets redacted", async () => {
    const { out, text } = output(true);
    createLogger(out, "info").warn({ apiSecret: SECRET, uid: "101" }, "platform client ready");
    await new Promise((r) => setImmediate(r));
    const plain = text().replace(COLOUR, "");
    expect(plain.trim().split("\n")).toHaveLength(1);
    expect(plain).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z\] WARN: platform client ready /);
    expect(plain).toContain('"uid":"101"');
    expect(plain).toContain("[redacted]");
    expect(plain).not.toContain(SECRET);
    expect(plain).not.toMatch(/^\{/);
  });
});
