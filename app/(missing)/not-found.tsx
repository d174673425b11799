import Link from "next/link";
import { primaryButton } from "@/components/ui/styles";
import { frameClass } from "@/components/shell/page-frame";

/** A page that does not exist, said inside the shell, with the way back. */
export default function DashboardNotFound() {
  return (
    <div className={frameClass("narrow")}>
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-slate-700 dark:text-slate-300">
        There is no page at this address. It may have been mistyped, or the link that led here is out of date.
      </p>
      <p className="flex flex-wrap gap-3">
        <Link href="/" className={primaryButton}>
          Back to Home
        </Link>
        <span className="self-center text-sm text-slate-600 dark:text-slate-400">
          or choose a page in the navigation.
        </span>
      </p>
    </div>
  );
}
