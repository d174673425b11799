"use client";
// The one sub-account picker (100,000 sub-accounts): a combobox that asks the server as one types
// (any part of a name, label or UID; listed by name) instead of loading the whole registry. A toolbar
// filter wraps it in its label (components/data-table/subaccount-filter.tsx), a form in its FormField. The
// UID chosen is shown by name beside it, and a UID the registry does not hold is still shown as typed.
import { useEffect, useId, useState, type KeyboardEvent, type Ref } from "react";
import { subAccountLabel, useSubAccount, useSubAccountSearch, type SubAccountItem } from "@/lib/client/sub-accounts";
import { controlClass } from "./styles";
import { useEarlyChange } from "./early-change";

const TYPING_PAUSE_MS = 200;
const UID = /^\d{1,32}$/;

export type SubAccountPickerProps = {
  id: string;
  /** The UID chosen (or, with `freeText`, typed); null or "" for none. */
  value: string | null;
  onChange: (uid: string | null) => void;
  /** The first option, meaning "no sub-account" (a filter's "All"); null: a sub-account must be chosen. */
  allLabel?: string | null;
  /** Only sub-accounts in this status are offered (a withdrawal comes from a normal one). */
  status?: "normal";
  /** What is typed is the value (a UID the registry may not hold, e.g. to bind); the list only suggests. */
  freeText?: boolean;
  className?: string;
  /** The field's aria wiring in a form (components/ui/form.tsx `describedBy`). */
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  onBlur?: () => void;
  /** A form library's ref, so a refused field takes the focus. */
  inputRef?: Ref<HTMLInputElement>;
};

export function SubAccountPicker({
  id,
  value,
  onChange,
  allLabel = null,
  status,
  freeText = false,
  className = `${controlClass} w-72`,
  onBlur,
  inputRef,
  ...aria
}: SubAccountPickerProps) {
  const listId = useId();
  const [text, setText] = useState<string | null>(null);
  const uid = value || null;
  // Looked up once typing stops: a half-typed UID is no sub-account, and asking for each would be noise.
  const chosen = useSubAccount(text === null && uid && UID.test(uid) ? uid : null);
  const shown = uid === null ? "" : chosen.data?.subUid === uid ? subAccountLabel(chosen.data) : uid;
  // What the field showed when it took the focus, or what was picked in it, kept while it has the focus: the
  // name or the default sub-account arriving meanwhile must not rewrite the field under the cursor (typing
  // would land after the name instead of replacing the selected UID; CI at 827f011 searched
  // "desk01@… (5481892133)client0001"). Another UID from outside (Back) is shown at once.
  const [held, setHeld] = useState<{ uid: string | null; text: string } | null>(null);
  const holding = held !== null && (held.uid === uid || held.uid === null);
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => {
    const t = setTimeout(() => setQ((text ?? "").trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(t);
  }, [text]);
  const search = useSubAccountSearch(q, open, { order: "name", status });
  // Only matches of what is typed now: a list still answering an earlier text would let Enter pick from it.
  const typedNow = (text ?? "").trim();
  const settled = typedNow === q && search.isSuccess && !search.isFetching;
  // "All" is offered while nothing is typed (an emptied field): with text typed, Enter takes a match or nothing,
  // never "All", which would drop the filter for a name that matched nothing (or before the matches came).
  const options: (SubAccountItem | null)[] = [
    ...(allLabel === null || typedNow !== "" ? [] : [null]),
    ...(settled ? search.data.items : []),
  ];
  const openList = () => {
    setActive(0);
    setOpen(true);
  };
  const pick = (s: SubAccountItem | null) => {
    setOpen(false);
    setText(null);
    setHeld(s ? { uid: s.subUid, text: subAccountLabel(s) } : null);
    onChange(s?.subUid ?? null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      // A shut list opens on its first option; an open one moves.
      if (!open) return openList();
      setActive((a) => Math.min(Math.max(a + (e.key === "ArrowDown" ? 1 : -1), 0), options.length - 1));
    } else if (e.key === "Enter" && open && options.length) {
      e.preventDefault();
      pick(options[active] ?? null);
    } else if (e.key === "Escape") {
      setOpen(false);
      setText(null);
    }
  };
  const onType = (typed: string, focused: boolean) => {
    setText(typed);
    setActive(0);
    setOpen(focused);
    if (freeText) onChange(typed.trim() || null);
  };
  const fieldValue = text ?? (holding ? held.text : shown);
  // Typed before hydration: searched for (and listed, if the field still has the focus) as if typed now.
  const early = useEarlyChange<HTMLDivElement>(
    fieldValue,
    (typed) => onType(typed, document.activeElement?.id === id),
    (box) => box.querySelector("input")?.value,
  );
  const optionId = (i: number) => `${listId}-o${i}`;
  const placeholder = allLabel === null ? "Type a name, label or UID" : `${allLabel} (type a name, label or UID)`;
  return (
    <div ref={early} className="relative">
      <input
        ref={inputRef}
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && options.length ? optionId(active) : undefined}
        {...aria}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        className={className}
        value={fieldValue}
        // The list opens when one clicks, types or presses an arrow key (the ARIA combobox pattern), not on
        // focus alone: a refused field takes the focus from its form, and the list would cover its message.
        onFocus={() => setHeld({ uid, text: shown })}
        onClick={() => open || openList()}
        onBlur={() => {
          setOpen(false);
          setText(null);
          setHeld(null);
          onBlur?.();
        }}
        onChange={(e) => onType(e.target.value, true)}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Sub-accounts"
          className={
            "absolute z-20 mt-1 max-h-72 w-96 max-w-[90vw] overflow-auto rounded-md border border-slate-300 " +
            "bg-white py-1 text-sm shadow-lg dark:border-slate-600 dark:bg-slate-900"
          }
        >
          {options.map((s, i) => (
            <li
              key={s?.subUid ?? "all"}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              // Before the input's blur, so the choice is made while the list is still there.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
              className={`cursor-pointer px-3 py-1.5 ${i === active ? "bg-blue-100 dark:bg-blue-900" : ""}`}
            >
              {s ? (
                <>
                  {s.subaccountName ?? s.label ?? "—"}{" "}
                  <span className="font-mono text-slate-600 dark:text-slate-400">({s.subUid})</span>
                </>
              ) : (
                allLabel
              )}
            </li>
          ))}
          <li role="presentation" className="px-3 py-1 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
            {search.isError
              ? "The search failed; type again to retry."
              : !settled
                ? "Searching…"
                : search.data?.nextCursor
                  ? "More match: keep typing to narrow."
                  : search.data?.items.length === 0
                    ? status
                      ? `No ${status} sub-account's name, label or UID holds that ` +
                        `(a frozen or deleted one cannot be chosen here).`
                      : "No sub-account's name, label or UID holds that."
                    : ""}
          </li>
        </ul>
      ) : null}
    </div>
  );
}
