"use client";
// The modal every dialog of Brokerdesk is drawn in (the type-to-confirm dialog, the reject dialogs, the
// second-factor prompt). Apart from confirm-dialog.tsx, so that a dialog without a form does not load
// react-hook-form (page weight).
import { useEffect, useId, useRef, type ReactNode } from "react";

const FOCUSABLE =
  "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), " +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert, Escape closes it
 * (the "cancel" event), Tab and Shift+Tab cycle inside it, and focus returns to what opened it.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement;
      d.showModal();
      d.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!open && d.open) {
      d.close();
    }
  }, [open]);

  useEffect(() => {
    if (open) return;
    const o = opener.current;
    if (o instanceof HTMLElement && o.isConnected) o.focus();
    opener.current = null;
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== "Tab" || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-desc` : undefined}
      onCancel={(e) => {
        // Escape: let React state decide, so the dialog and the page never disagree about being open.
        e.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
      className={
        "m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-0 " +
        "text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-600 dark:bg-slate-900 " +
        "dark:text-slate-100"
      }
    >
      {open ? (
        <div className="space-y-3 p-5">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? (
            <div id={`${id}-desc`} className="text-sm text-slate-700 dark:text-slate-300">
              {description}
            </div>
          ) : null}
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
