"use client";
// Single leverage changes the leverage policy gave a second lead, waiting: in the lead's approval queue on
// /withdrawals and on /leverage. Another lead approves (a fresh second factor: the call asks for one) or rejects;
// the requester may withdraw. The buttons are a convenience: the server refuses one's own approval, a second
// decision and a lead on approver hold on its own.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import type { LeverageChangeView } from "@/lib/api/leverage/record";
import { leverageRoutes } from "@/lib/api/leverage/routes";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { IsoTime } from "@/components/data-table/time";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { useNotice } from "@/components/ui/notice";
import { Form } from "@/components/ui/form-element";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { buttonClass, controlClass } from "@/components/ui/styles";

const primary = buttonClass("primary", "sm");
const plain = buttonClass("secondary", "sm");

/** React Query key head of the waiting changes (the form and the decisions read them again). */
export const LEVERAGE_CHANGES_KEY = "leverage.changes";

const accountWords = (c: LeverageChangeView) => (c.subUid ? `sub-account ${c.subUid}` : "the main account");
export const changeWords = (c: LeverageChangeView) =>
  `${c.symbol} (${c.productType}) to ${c.leverage}× on ${accountWords(c)}`;

const COLUMNS: ListColumn<LeverageChangeView>[] = [
  {
    header: "Asked",
    cell: (c) => (
      <>
        <IsoTime iso={c.requestedAt} />
        <span className="block text-xs break-all text-slate-600 dark:text-slate-400">by {c.requestedBy}</span>
      </>
    ),
  },
  {
    header: "Change",
    cell: (c) => (
      <>
        <span className="font-medium">{changeWords(c)}</span>
        <span className="block text-xs text-slate-700 dark:text-slate-300">Needs a second lead: {c.why}</span>
      </>
    ),
  },
  { header: "Why", className: "max-w-60 break-words", cell: (c) => c.reason || "—" },
];

export function WaitingLeverageChanges({
  me,
  title = "Waiting for a second lead: leverage",
}: {
  me: string;
  title?: string;
}) {
  const qc = useQueryClient();
  const waiting = useResourceQuery(leverageRoutes.changes, { input: {} }, { queryKey: [LEVERAGE_CHANGES_KEY] });
  const { say, notice } = useNotice();
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const decide = useMutation({
    mutationFn: ({ verb, c }: { verb: "approve" | "reject" | "withdraw"; c: LeverageChangeView }) =>
      verb === "approve"
        ? callResource(leverageRoutes.approve, { params: { id: c.id } })
        : verb === "reject"
          ? callResource(leverageRoutes.reject, { params: { id: c.id }, input: { reason } })
          : callResource(leverageRoutes.withdraw, { params: { id: c.id } }),
    onSuccess: (done) => {
      setRejecting(null);
      setReason("");
      const what = changeWords(done);
      say(
        done.state === "sent" ? "ok" : "warn",
        done.state === "sent"
          ? `Approved and set: ${what}. The record holds the platform's answer.`
          : `${done.state === "rejected" ? "Rejected" : "Withdrawn"}: ${what}. Nothing was sent.`,
      );
    },
    onError: (e) => say("error", errorText(e)),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: [LEVERAGE_CHANGES_KEY] }),
        qc.invalidateQueries({ queryKey: ["leverage.record"] }),
      ]),
  });
  const isMine = (c: LeverageChangeView) => c.requestedBy.toLowerCase() === me.toLowerCase();

  return (
    <Panel title={title} surface={false}>
      <div aria-live="polite" data-testid="leverage-queue-notice">
        {notice}
      </div>
      <QueryView query={waiting} loading={<Loading what="the leverage changes waiting" height={120} />}>
        {(data) => (
          <ListTable
            label={title}
            frame="box"
            rows={data.items}
            empty="No leverage change waits for a second lead."
            rowKey={(c) => c.id}
            rowData={(c) => ({ "data-leverage-change-id": c.id })}
            columns={[
              ...COLUMNS,
              {
                header: "Actions",
                hiddenHeader: true,
                className: "whitespace-nowrap text-right",
                cell: (c) =>
                  isMine(c) ? (
                    <button
                      type="button"
                      className={plain}
                      disabled={decide.isPending}
                      aria-label={`Withdraw your change of ${changeWords(c)}`}
                      onClick={() => decide.mutate({ verb: "withdraw", c })}
                    >
                      Withdraw
                    </button>
                  ) : rejecting === c.id ? (
                    <Form
                      className="flex items-center justify-end gap-2"
                      onSubmit={() => decide.mutate({ verb: "reject", c })}
                    >
                      <label className="sr-only" htmlFor={`reject-${c.id}`}>
                        Why reject it
                      </label>
                      <input
                        id={`reject-${c.id}`}
                        className={`${controlClass} w-48`}
                        value={reason}
                        placeholder="Why (at least 3 characters)"
                        onChange={(e) => setReason(e.target.value)}
                      />
                      <button type="submit" className={plain} disabled={decide.isPending}>
                        Reject
                      </button>
                      <button type="button" className={plain} onClick={() => setRejecting(null)}>
                        Keep
                      </button>
                    </Form>
                  ) : (
                    <div className="flex justify-end gap-2">
                      <button
                        type="button"
                        className={primary}
                        disabled={decide.isPending}
                        aria-label={`Approve ${changeWords(c)} asked by ${c.requestedBy}`}
                        onClick={() => decide.mutate({ verb: "approve", c })}
                      >
                        Approve
                      </button>
                      <button
                        type="button"
                        className={plain}
                        aria-label={`Reject ${changeWords(c)} asked by ${c.requestedBy}`}
                        onClick={() => {
                          setReason("");
                          setRejecting(c.id);
                        }}
                      >
                        Reject
                      </button>
                    </div>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
    </Panel>
  );
}
