"use client";
// Whose fills or plan orders the ledger shows: the configured platform keys this staff member may choose
// (GET /api/platform-keys, names and kinds only; which roles may choose which key is the server's rule).
// A key in the URL that is not offered stays shown, so the control says what the list is of.
import { useId } from "react";
import { KEY_KIND_WORDS } from "@/lib/api/platform-keys/words";
import type { PlatformKeyView } from "@/lib/api/platform-keys";
import { Field } from "@/components/data-table/field";
import { controlClass } from "@/components/ui/styles";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { platformKeysRoutes } from "@/lib/api/platform-keys/routes";

const MAIN = "main";
const words = (k: PlatformKeyView) =>
  `${k.name} (${KEY_KIND_WORDS[k.kind]})${k.synced ? "" : " — not kept by the ledger"}`;

export function KeyPicker({
  list,
  value,
  onChange,
}: {
  list: "fills" | "plan-orders";
  value: string | null;
  onChange: (key: string | null) => void;
}) {
  const id = useId();
  const keys = useResourceQuery(platformKeysRoutes.list, { input: { for: list } }, { staleTime: 5 * 60_000 });
  const chosen = value ?? MAIN;
  const offered = keys.data?.keys ?? [];
  const missing = !offered.some((k) => k.name === chosen);
  return (
    <Field id={id} label="Platform key">
      <select
        id={id}
        // Its width does not wait for the keys' names: the filters beside it stay where they were drawn.
        className={`${controlClass} w-64`}
        value={chosen}
        disabled={!keys.isSuccess}
        aria-describedby={keys.isError ? `${id}-error` : undefined}
        // The main key is the default: it is left out of the URL.
        onChange={(e) => onChange(e.target.value === MAIN ? null : e.target.value)}
      >
        {offered.map((k) => (
          <option key={k.name} value={k.name}>
            {words(k)}
          </option>
        ))}
        {missing ? <option value={chosen}>{keys.isSuccess ? `${chosen} (not offered to you)` : chosen}</option> : null}
      </select>
      {keys.isError ? (
        <span id={`${id}-error`} role="alert" className="text-xs text-red-700 dark:text-red-300">
          The keys could not be listed; the main key is shown.
        </span>
      ) : null}
    </Field>
  );
}
