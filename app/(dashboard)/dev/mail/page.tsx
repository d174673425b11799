// Simulator mode's mail sink: the notification e-mails the in-process SMTP server received
// (server/notifications/mail-sink.ts), each person's own only. There is no such page in live mode.
import { notFound } from "next/navigation";
import { env } from "@/lib/env";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";
import { currentMailSink } from "@/server/notifications/mail-sink";
import { MailList } from "./_components/mail-list";

export const metadata = pageMetadata("devMail");
export const dynamic = "force-dynamic";

const Page = framedPage(
  "devMail",
  {
    intro:
      "The demo's e-mail: in simulator mode every notification mail goes to an SMTP server inside Brokerdesk " +
      "instead of the world. Here are the last ones sent to you (newest first); set SMTP_URL to send real mail.",
  },
  (s) => (
    <MailList
      email={s.email}
      mails={(currentMailSink()?.mails ?? []).filter((m) => m.to.some((t) => t.toLowerCase() === s.email))}
    />
  ),
);

export default async function DevMailPage() {
  if (env.mode !== "simulator") notFound();
  return Page();
}
