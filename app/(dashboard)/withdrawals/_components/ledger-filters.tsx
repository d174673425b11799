"use client";
// The ledger's typed filters (applied on Enter or on leaving the field) and the line that counts the whole
// filtered set and totals it per coin, both computed by the database, not from the loaded page.
import { useId } from "react";
import { counted, groupDecimal } from "@/lib/format";
import { ApiError, describeError, fieldProblem } from "@/lib/client/api";
import { Field } from "@/components/data-table/field";
import { controlClass } from "@/components/ui/styles";
import { WITHDRAWALS_KEY } from "./api";
import { Form } from "@/components/ui/form-element";
import { fieldText, useEarlyState } from "@/components/ui/early-change";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

export function TextFilter({
  label,
  value,
  numeric = false,
  onApply,
}: {
  label: string;
  value: string;
  numeric?: boolean;
  onApply: (v: string) => void;
}) {
  const id = useId();
  // Seeded from the URL once per value (the parent re-keys it).
  const [draft, setDraft, ref] = useEarlyState(value);
  return (
    <Form onSubmit={() => onApply(fieldText(draft, ref).trim())}>
      <Field id={id} label={label}>
        <input
          ref={ref}
          id={id}
          type="search"
          inputMode={numeric ? "decimal" : undefined}
          className={`${controlClass} ${numeric ? "w-32" : "w-52"}`}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => draft.trim() !== value && onApply(draft.trim())}
        />
      </Field>
    </Form>
  );
}

export function LedgerSummary({ query }: { query: URLSearchParams }) {
  const input = Object.fromEntries(query);
  const q = useResourceQuery(
    withdrawalsRoutes.summary,
    { input },
    { queryKey: [WITHDRAWALS_KEY, "summary", query.toString()] },
  );
  const text = q.isPending
    ? "Counting…"
    : q.isError
      ? q.error instanceof ApiError && q.error.fieldErrors
        ? Object.entries(q.error.fieldErrors)
            .map(([field, msgs]) => fieldProblem(field, msgs))
            .join(" ")
        : `Totals unavailable: ${describeError(q.error).title}`
      : `${counted(q.data.count, "withdrawal request")} ${q.data.count === 1 ? "matches" : "match"}` +
        (q.data.totals.length
          ? " · " +
            q.data.totals
              .map((t) => `${groupDecimal(t.amount)} ${t.coin} (${t.count.toLocaleString("en-US")})`)
              .join(" · ")
          : "");
  return (
    <p
      className="tabular mb-2 text-sm"
      data-testid="ledger-summary"
      aria-live="polite"
      role={q.isError ? "alert" : undefined}
    >
      {text}
    </p>
  );
}
