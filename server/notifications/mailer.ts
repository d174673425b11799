import "server-only";
// The e-mail channel's transport: SMTP_URL's server (nodemailer), or in simulator mode without one the in-process
// sink (./mail-sink.ts) that /dev/mail shows. Without either, e-mail is off and /account says so.
import nodemailer from "nodemailer";
import { env } from "@/lib/env";

export type Mail = { to: string; subject: string; text: string; html: string; messageId: string };
export type Mailer = { send(mail: Mail): Promise<void>; describe: string };

const g = globalThis as typeof globalThis & { __brokerdeskMailer?: Promise<Mailer | null> };

export function mailerFor(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    describe: new URL(url).host,
    async send(mail) {
      await transport.sendMail({ from, ...mail, messageId: mail.messageId });
    },
  };
}

/** This process's mailer, or null when e-mail is off. Once per process. */
export function getMailer(): Promise<Mailer | null> {
  g.__brokerdeskMailer ??= (async () => {
    if (env.notify.smtpUrl) return mailerFor(env.notify.smtpUrl, env.notify.from);
    if (env.mode !== "simulator") return null;
    const { startMailSink } = await import("./mail-sink");
    const sink = await startMailSink();
    return mailerFor(sink.url, env.notify.from);
  })();
  return g.__brokerdeskMailer;
}
