"use client";

import { useEffect, useId, useSyncExternalStore, type ReactNode } from "react";
import { useEarlyChange } from "@/components/ui/early-change";
import {
  THEME_CHANGE_EVENT,
  THEME_STORAGE_KEY,
  applyTheme,
  isThemeChoice,
  readThemeChoice,
  storeThemeChoice,
  watchSystemTheme,
  type ThemeChoice,
} from "./theme";

function subscribe(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY) onChange();
  };
  window.addEventListener(THEME_CHANGE_EVENT, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(THEME_CHANGE_EVENT, onChange);
    window.removeEventListener("storage", onStorage);
  };
}

// The server cannot know the stored choice: its HTML checks no radio (the page's class is already right,
// THEME_INIT_SCRIPT), and the toggle shows the stored choice right after hydration. Checking one there would
// also make a click on it before hydration no edit at all, and so lost.
const serverSnapshot = (): ThemeChoice | null => null;

const ICONS: Record<ThemeChoice, ReactNode> = {
  light: (
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>
  ),
  dark: <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z" />,
  system: (
    <>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </>
  ),
};

const OPTIONS: { value: ThemeChoice; label: string }[] = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
];

/** Light / dark / system, as a radio group (arrow keys move between the three). */
export function ThemeToggle() {
  const choice = useSyncExternalStore<ThemeChoice | null>(subscribe, readThemeChoice, serverSnapshot);
  const name = useId();
  // A radio clicked before hydration: the page takes that choice (e2e/early-input.ui.spec.ts).
  const group = useEarlyChange<HTMLFieldSetElement>(
    choice ?? "",
    (picked) => {
      if (isThemeChoice(picked)) storeThemeChoice(picked);
    },
    (el) => el.querySelector<HTMLInputElement>("input:checked")?.value,
  );

  useEffect(() => {
    // Re-apply on any change of the choice (another tab included), and follow the system while on "system".
    if (choice === null) return;
    applyTheme(choice);
    if (choice !== "system") return;
    return watchSystemTheme(() => applyTheme("system"));
  }, [choice]);

  return (
    <fieldset ref={group} className="flex items-center rounded-md border border-slate-300 p-0.5 dark:border-slate-600">
      <legend className="sr-only">Theme</legend>
      {OPTIONS.map((o) => (
        <label
          key={o.value}
          title={`${o.label} theme`}
          className={
            "relative flex cursor-pointer items-center rounded px-1.5 py-1 text-slate-600 hover:bg-slate-100 " +
            "hover:text-slate-900 has-checked:bg-slate-900 has-checked:text-white has-focus-visible:outline-2 " +
            "has-focus-visible:outline-offset-1 has-focus-visible:outline-blue-600 dark:text-slate-300 " +
            "dark:hover:bg-slate-800 dark:hover:text-white dark:has-checked:bg-slate-100 " +
            "dark:has-checked:text-slate-900 dark:has-focus-visible:outline-blue-400"
          }
        >
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={choice === o.value}
            onChange={() => storeThemeChoice(o.value)}
            // Transparent over the whole label, so a click or tap anywhere on it hits the radio itself;
            // the label draws the focus ring (has-focus-visible) since an invisible input cannot.
            className="absolute inset-0 m-0 cursor-pointer appearance-none opacity-0"
          />
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-4 w-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            {ICONS[o.value]}
          </svg>
          <span className="sr-only">{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
