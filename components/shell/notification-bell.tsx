"use client";
// The header's bell: how many notifications are unread, and the newest ones (server/notifications/inbox.ts decides
// what this person may read). Read every half minute. A disclosure, not a menu: a button that opens a list of links,
// Escape closes it and gives the focus back; following a link marks that one read, "Mark all read" the rest.
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { notificationsRoutes } from "@/lib/api/notifications/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { errorText } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";

export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const qc = useQueryClient();
  const q = useResourceQuery(
    notificationsRoutes.inbox,
    {},
    { refetchInterval: 30_000, retry: false, refetchOnWindowFocus: true },
  );
  const mark = useMutation({
    mutationFn: (input: { through: number } | { id: number }) => callResource(notificationsRoutes.markRead, { input }),
    onSettled: () => qc.invalidateQueries({ queryKey: [notificationsRoutes.inbox.id] }),
  });
  const unread = q.data?.unread ?? 0;
  const items = q.data?.items ?? [];
  const count = unread > 99 ? "99+" : String(unread);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="notification-bell"
        className={
          "relative rounded-md px-2 py-1 font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-100 " +
          "dark:hover:bg-slate-800"
        }
      >
        {/* A drawn bell: an emoji needs a font the machine may not have. */}
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="inline-block h-5 w-5 align-[-0.25em]"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <span className="sr-only">Notifications</span>
        {/* Always in the layout (an empty badge keeps its width), so the count's arrival moves nothing. */}
        <span
          data-testid="notification-unread"
          className={
            "ml-1 inline-block min-w-[1.75rem] rounded-full px-1.5 text-center text-xs font-semibold " +
            (unread ? "bg-amber-200 text-amber-950 dark:bg-amber-800 dark:text-amber-50" : "text-transparent")
          }
        >
          {unread ? count : "0"}
          <span className="sr-only">{unread ? " unread" : " (none unread)"}</span>
        </span>
      </button>
      {open ? (
        <div
          ref={panel}
          id={panelId}
          role="region"
          aria-label="Notifications"
          className={
            "absolute right-0 z-30 mt-2 w-[min(26rem,90vw)] rounded-md border border-slate-200 bg-white p-2 " +
            "text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
          }
        >
          <div className="flex items-center justify-between gap-2 px-2 pb-2">
            <h2 className="font-semibold">Notifications</h2>
            <button
              type="button"
              disabled={!unread || mark.isPending}
              onClick={() => items[0] && mark.mutate({ through: items[0].id })}
              className="rounded px-2 py-1 text-blue-800 underline disabled:no-underline disabled:opacity-60 dark:text-blue-300"
            >
              Mark all read
            </button>
          </div>
          {q.isError ? (
            <p role="alert" className="px-2 py-1 text-red-800 dark:text-red-300">
              {errorText(q.error)}
            </p>
          ) : null}
          {mark.isError ? (
            <p role="alert" className="px-2 py-1 text-red-800 dark:text-red-300">
              {errorText(mark.error)}
            </p>
          ) : null}
          {q.isPending ? <p className="px-2 py-1">Loading…</p> : null}
          {q.isSuccess && !items.length ? <p className="px-2 py-1">Nothing for you in the last 30 days.</p> : null}
          <ul className="max-h-96 overflow-y-auto">
            {items.map((n) => (
              <li key={n.id} className="border-t border-slate-100 first:border-t-0 dark:border-slate-800">
                <Link
                  href={n.href}
                  onClick={() => {
                    if (!n.read) mark.mutate({ id: n.id });
                    setOpen(false);
                  }}
                  className="block rounded px-2 py-2 hover:bg-slate-100 dark:hover:bg-slate-800"
                >
                  <span className={n.read ? "" : "font-semibold"}>
                    {n.read ? null : <span className="sr-only">Unread: </span>}
                    {n.title}
                  </span>
                  <span className="block text-slate-700 dark:text-slate-300">{n.text}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">{formatUtc(n.createdAt)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
