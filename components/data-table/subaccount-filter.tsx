"use client";
// The "Sub-account" filter of a server-filtered list (the withdrawal and deposit ledgers), at any registry
// size: a combobox that asks the server as one types (name, label or UID, by their start) instead of
// loading the whole registry. "All" first; the UID chosen is shown by name beside it, and a UID from the URL
// that the registry does not hold is still shown, so the filter says what it filters on.
import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { subAccountLabel, useSubAccount, useSubAccountSearch, type SubAccountItem } from "@/lib/client/sub-accounts";
import { controlClass } from "@/components/ui/styles";
import { Field } from "./field";

const TYPING_PAUSE_MS = 200;

/** `allLabel` null: a sub-account must be chosen (a page about one sub-account), so there is no "All". */
export function SubAccountFilter({ id, value, allLabel = "All", onChange }: { id: string; value: string | null; allLabel?: string | null; onChange: (uid: string | null) => void }) {
  const listId = useId();
  const chosen = useSubAccount(value);
  const shown = value === null ? "" : chosen.data ? subAccountLabel(chosen.data) : value;
  const [text, setText] = useState<string | null>(null);
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => {
    const t = setTimeout(() => setQ((text ?? "").trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(t);
  }, [text]);
  const search = useSubAccountSearch(q, open);
  // Only matches of what is typed now: a list still answering an earlier text would let Enter pick from it.
  const settled = (text ?? "").trim() === q && search.isSuccess && !search.isFetching;
  const options: (SubAccountItem | null)[] = [...(allLabel === null ? [] : [null]), ...(settled ? search.data.items : [])];
  const pick = (s: SubAccountItem | null) => {
    setOpen(false);
    setText(null);
    onChange(s?.subUid ?? null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(Math.max(a + (e.key === "ArrowDown" ? 1 : -1), 0), options.length - 1));
    } else if (e.key === "Enter" && open && options.length) {
      e.preventDefault();
      pick(options[active] ?? null);
    } else if (e.key === "Escape") {
      setOpen(false);
      setText(null);
    }
  };
  const optionId = (i: number) => `${listId}-o${i}`;
  return (
    <Field id={id} label="Sub-account">
      <div className="relative">
        <input
          id={id}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && options.length ? optionId(active) : undefined}
          autoComplete="off"
          placeholder={allLabel === null ? "Type a name, label or UID" : `${allLabel} (type a name, label or UID)`}
          className={`${controlClass} w-72`}
          value={text ?? shown}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setText(null);
          }}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
        {open ? (
          <ul id={listId} role="listbox" aria-label="Sub-accounts" className="absolute z-20 mt-1 max-h-72 w-96 overflow-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg dark:border-slate-600 dark:bg-slate-900">
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
                    {s.subaccountName ?? s.label ?? "—"} <span className="font-mono text-slate-600 dark:text-slate-400">({s.subUid})</span>
                  </>
                ) : (
                  allLabel
                )}
              </li>
            ))}
            <li role="presentation" className="px-3 py-1 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
              {search.isError ? "The search failed; type again to retry." : !settled ? "Searching…" : search.data?.nextCursor ? "More match: keep typing to narrow." : search.data?.items.length === 0 ? "No sub-account starts with that." : ""}
            </li>
          </ul>
        ) : null}
      </div>
    </Field>
  );
}
