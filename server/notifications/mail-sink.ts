import "server-only";
// Simulator mode's SMTP sink: an in-process SMTP server (smtp-server) on loopback that keeps the last mails it
// received, parsed (mailparser), for /dev/mail. Tests start their own to read what was sent over real SMTP.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type SunkMail = {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
};

export type MailSink = { url: string; mails: SunkMail[]; stop(): Promise<void> };

const KEEP = 200;
const g = globalThis as typeof globalThis & { __brokerdeskMailSink?: MailSink };

/** The process's sink, if simulator mode started one. */
export const currentMailSink = (): MailSink | undefined => g.__brokerdeskMailSink;

export async function startMailSink(opts: { keep?: number; global?: boolean } = {}): Promise<MailSink> {
  const mails: SunkMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((m) => {
          mails.unshift({
            messageId: m.messageId ?? "",
            from: m.from?.text ?? "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: m.subject ?? "",
            text: m.text ?? "",
            html: typeof m.html === "string" ? m.html : "",
            receivedAt: new Date().toISOString(),
          });
          mails.splice(opts.keep ?? KEEP);
          callback();
        })
        .catch((e: unknown) => callback(e instanceof Error ? e : new Error(String(e))));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const sink: MailSink = {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  if (opts.global ?? true) g.__brokerdeskMailSink = sink;
  return sink;
}
