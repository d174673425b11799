// The mails the simulator's sink received for one person, newest first.
import type { SunkMail } from "@/server/notifications/mail-sink";
import { formatUtc } from "@/lib/format";

export function MailList({ email, mails }: { email: string; mails: SunkMail[] }) {
  if (!mails.length) return <p>No mail for {email} yet.</p>;
  return (
    <ol aria-label="Mails received" className="space-y-4">
      {mails.map((m) => (
        <li key={m.messageId} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
          <article aria-label={m.subject}>
            <h2 className="font-semibold">{m.subject}</h2>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              From {m.from} to {m.to.join(", ")}, {formatUtc(m.receivedAt)}
            </p>
            <pre className="mt-2 font-sans text-sm break-words whitespace-pre-wrap">
              <Linked text={m.text} />
            </pre>
          </article>
        </li>
      ))}
    </ol>
  );
}

/** The mail's text with its links made links (the text part is what every mail client can show). */
function Linked({ text }: { text: string }) {
  return text.split(/(https?:\/\/[^\s<>"]+)/).map((part, i) =>
    i % 2 ? (
      <a key={i} href={part} className="text-blue-800 underline dark:text-blue-300">
        {part}
      </a>
    ) : (
      part
    ),
  );
}
