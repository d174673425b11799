import type { Refusal } from "@/lib/client/api";

/** A platform refusal in words first (what it means for staff), then the platform's own code and message. */
export function PlatformRefusal({ refusal, action }: { refusal: Refusal; action: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100">
      <p className="font-semibold">
        The platform refused to {action}: {refusal.meaning ?? "Brokerdesk has no explanation for this code; the platform's message follows."}
      </p>
      <p className="mt-1">
        Platform code <code className="font-mono">{refusal.code}</code>: <q>{refusal.msg}</q>
      </p>
    </div>
  );
}
