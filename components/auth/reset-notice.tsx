import { noticeClass } from "@/components/ui/styles";
/** Told at the first sign-in after an admin removed the account's second factors. */
export function ResetNotice({ at }: { at: string }) {
  return (
    <p role="status" data-testid="mfa-reset-notice" className={noticeClass("warn", "md")}>
      Your second factors were reset by an administrator on {at.slice(0, 10)} {at.slice(11, 16)} UTC. If you did not ask
      for this, tell your security contact now.
    </p>
  );
}
