import Link from "next/link";
import { ModeBadge } from "@/components/mode-badge";

/** The product name (a way home) and whether the platform behind it is the simulator or the live one. */
export function Brand({ mode }: { mode: "live" | "simulator" }) {
  return (
    <div className="flex items-center gap-2">
      <Link href="/" className="rounded text-lg font-bold tracking-tight text-slate-900 dark:text-white">
        Brokerdesk
      </Link>
      <ModeBadge mode={mode} />
    </div>
  );
}
