"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/** At most one touch per minute: enough precision for a 30-minute idle limit. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Reports activity (navigation, a click or a key) to next-auth's session endpoint. That request runs the
 * jwt callback, which refreshes the token's seenAt and rewrites the cookie; server components cannot
 * write cookies, so without this the idle timeout would count from sign-in. If the session has ended
 * (idle, too old, disabled, role changed) the answer has no user and the page goes to the sign-in page.
 */
export function SessionActivity() {
  const pathname = usePathname();
  const router = useRouter();
  const last = useRef(0);

  useEffect(() => {
    const touch = (force: boolean) => {
      const now = Date.now();
      if (!force && now - last.current < TOUCH_EVERY_MS) return;
      last.current = now;
      fetch("/api/auth/session", { cache: "no-store" })
        .then((r) => (r.ok ? (r.json() as Promise<{ user?: unknown }>) : null))
        .then((body) => {
          if (body && !body.user) {
            const back = window.location.pathname + window.location.search;
            router.replace(`/login?callbackUrl=${encodeURIComponent(back)}`);
            router.refresh();
          }
        })
        .catch(() => undefined); // offline: the next touch or request decides
    };
    touch(true);
    const onActivity = () => touch(false);
    window.addEventListener("pointerdown", onActivity);
    window.addEventListener("keydown", onActivity);
    return () => {
      window.removeEventListener("pointerdown", onActivity);
      window.removeEventListener("keydown", onActivity);
    };
  }, [pathname, router]);

  return null;
}
