"use client";
// A plan's report on the page, per target: what the record held, the value asked, its state and the platform's own
// code and message (the CSV export is the same rows, sealed). Loaded when opened, 200 at a time, all or by state.
import { useState } from "react";
import { leveragePlansRoutes } from "@/lib/api/leverage-plans/routes";
import { TARGET_STATES, type TargetState } from "@/lib/api/leverage-plans/words";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { IsoTime } from "@/components/data-table/time";
import { ListTable } from "@/components/ui/list-table";
import { buttonClass, controlClass, fieldErrorClass, labelClass } from "@/components/ui/styles";

const PAGE = 200;

export function PlanReport({ planId, polling }: { planId: string; polling: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-2" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-sm">Report per target</summary>
      {open ? <Targets planId={planId} polling={polling} /> : null}
    </details>
  );
}

function Targets({ planId, polling }: { planId: string; polling: boolean }) {
  const [state, setState] = useState<TargetState | "">("");
  const [after, setAfter] = useState<number[]>([]);
  const page = useResourceQuery(
    leveragePlansRoutes.targets,
    {
      params: { id: planId },
      input: { limit: PAGE, ...(state ? { state } : {}), ...(after.length ? { after: after.at(-1) } : {}) },
    },
    { refetchInterval: polling ? 2000 : false },
  );
  return (
    <div className="mt-2 space-y-2">
      <label className="flex w-56 flex-col gap-1">
        <span className={labelClass}>Targets in state</span>
        <select
          className={controlClass}
          value={state}
          onChange={(e) => {
            setState(e.target.value as TargetState | "");
            setAfter([]);
          }}
        >
          <option value="">all</option>
          {TARGET_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {page.error ? (
        <p role="alert" className={fieldErrorClass}>
          {errorText(page.error)}
        </p>
      ) : null}
      <ListTable
        label={`The targets of plan ${planId}`}
        rows={page.data?.items ?? []}
        rowKey={(t) => String(t.ord)}
        empty={page.isPending ? "Loading the targets…" : "No target in this state."}
        columns={[
          { header: "#", cell: (t) => t.ord, numeric: true },
          { header: "Sub-account", cell: (t) => t.subUid, names: true },
          { header: "Symbol", cell: (t) => t.symbol },
          { header: "Was (recorded)", cell: (t) => t.current ?? "not set through Brokerdesk", numeric: true },
          { header: "Asked", cell: (t) => t.leverage, numeric: true },
          { header: "State", cell: (t) => t.state },
          { header: "Platform's code", cell: (t) => t.code ?? "" },
          { header: "Message", cell: (t) => t.message ?? "" },
          { header: "Answered", cell: (t) => <IsoTime iso={t.answeredAt} /> },
        ]}
      />
      <div className="flex gap-2">
        {after.length ? (
          <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setAfter(after.slice(0, -1))}>
            Previous {PAGE}
          </button>
        ) : null}
        {page.data?.next != null ? (
          <button
            type="button"
            className={buttonClass("secondary", "sm")}
            onClick={() => setAfter([...after, page.data!.next!])}
          >
            Next {PAGE}
          </button>
        ) : null}
      </div>
    </div>
  );
}
