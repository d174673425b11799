import type { Refusal } from "@/lib/client/api";

/**
 * A platform refusal in words first (what it means for staff), then the platform's own code and message.
 * Drawn inside the form's FormOutcome (its box, its alert role and the focus after a submit).
 */
export function PlatformRefusal({ refusal, action }: { refusal: Refusal; action: string }) {
  return (
    <>
      <p className="font-semibold">
        The platform refused to {action}: {refusal.meaning ?? "Brokerdesk has no explanation for this code; the platform's message follows."}
      </p>
      <p className="mt-1">
        Platform code <code className="font-mono">{refusal.code}</code>: <q>{refusal.msg}</q>
      </p>
    </>
  );
}
