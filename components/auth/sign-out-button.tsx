"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  const router = useRouter();
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      disabled={pending || !hydrated}
      onClick={async () => {
        setPending(true);
        // next-auth's browser client is loaded on the click, not with every page (page weight).
        // redirect: false, then our own navigation: the sign-in page is always on this origin.
        await import("next-auth/react").then(({ signOut }) => signOut({ redirect: false })).catch(() => undefined);
        router.replace("/login");
        router.refresh();
      }}
      className={
        "rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-100 " +
        "disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800"
      }
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
