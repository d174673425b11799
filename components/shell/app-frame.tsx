"use client";

import { useCallback, useState, type KeyboardEvent, type ReactNode } from "react";
import type { NavSection } from "./nav";
import { Sidebar } from "./sidebar";
import { buttonClass } from "@/components/ui/styles";

const NAV_PANEL_ID = "main-nav-panel";

/**
 * Header, sidebar and main region. Client-side only for the narrow-screen menu: below `lg` the sidebar
 * folds behind a "Menu" button; from `lg` up it is always shown. The header's contents come from the
 * (server) layout, which knows the session.
 */
export function AppFrame({
  sections,
  brand,
  account,
  children,
}: {
  sections: NavSection[];
  brand: ReactNode;
  account: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape" && open) {
      setOpen(false);
      document.getElementById("nav-menu-button")?.focus();
    }
  };

  return (
    <div className="flex min-h-screen flex-col" onKeyDown={onKeyDown}>
      <a
        href="#main"
        // not-sr-only resets padding, so the padding is set again under focus.
        className={
          "sr-only rounded-md bg-blue-700 text-sm font-semibold text-white shadow-lg focus:not-sr-only " +
          "focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:px-4 focus:py-2"
        }
      >
        Skip to content
      </a>
      <header
        className={
          "z-20 border-b border-slate-200 bg-white lg:sticky " + "lg:top-0 dark:border-slate-800 dark:bg-slate-950"
        }
      >
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2 sm:px-4 lg:h-14 lg:flex-nowrap lg:py-0">
          <button
            id="nav-menu-button"
            type="button"
            aria-expanded={open}
            aria-controls={NAV_PANEL_ID}
            onClick={() => setOpen((v) => !v)}
            className={`${buttonClass("secondary", "sm")} lg:hidden`}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-4 w-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            >
              {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
            Menu
          </button>
          {brand}
          {account}
        </div>
      </header>
      <div className="flex flex-1 flex-col lg:flex-row">
        {/* The outer box stretches to the page's height (background and border); the inner one stays in view. */}
        <div
          id={NAV_PANEL_ID}
          className={
            `${open ? "block" : "hidden"} border-b border-slate-200 bg-slate-50 lg:block lg:w-56 lg:shrink-0 ` +
            `lg:border-r lg:border-b-0 dark:border-slate-800 dark:bg-slate-900`
          }
        >
          <div className="lg:sticky lg:top-14 lg:max-h-[calc(100dvh-3.5rem)] lg:overflow-y-auto">
            <Sidebar sections={sections} onNavigate={close} />
          </div>
        </div>
        {/* tabIndex -1: the skip link's target takes focus, so the next Tab goes on from the page's content. */}
        <main id="main" tabIndex={-1} className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </div>
  );
}
