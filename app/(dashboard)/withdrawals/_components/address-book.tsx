"use client";
// The address book of one sub-account: its destinations and their state, a form to ask for one (another
// person approves it, as a withdrawal), and for leads the entries others asked for, to approve or reject:
// before a sub-account is chosen, every one waiting for approval, of any sub-account. To a reader of compliance's
// work, an entry the sanctions or block lists list is marked (its approval is refused).
import { useId, useState } from "react";
import { buttonClass } from "@/components/ui/styles";
import { useWatch } from "react-hook-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import type * as z from "zod/mini";
import { DESTINATIONS_LIMIT, destinationFormSchema, type DestinationView } from "@/lib/api/withdrawals/destinations";
import { errorText } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";
import { RejectDialog } from "./reject-form";
import { describedBy, FormField, inputClass, monoInputClass } from "@/components/ui/form";
import { useNotice } from "@/components/ui/notice";
import { useFormCall } from "@/components/ui/form-call";
import { useSchemaForm } from "@/components/ui/schema-form";
import { SubAccountField } from "@/components/ui/subaccount-field";
import { Badge } from "@/components/ui/badge";
import { WITHDRAWALS_KEY } from "./api";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { Form } from "@/components/ui/form-element";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { useSubAccountNames } from "@/lib/client/sub-account-name-map";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

const FIELDS = ["subUid", "dest", "chain", "address", "tag", "label"] as const;
const plain = buttonClass("secondary", "sm");
const TONE = { requested: "info", approved: "ok", rejected: "neutral" } as const;

/** An approved entry still in its lock (DESTINATION_LOCK_HOURS): when it starts to count; null once it does. */
const lockedUntil = (d: DestinationView): string | null =>
  d.state === "approved" && d.usableFrom && Date.parse(d.usableFrom) > Date.now() ? d.usableFrom : null;

export function AddressBook({ me, canApprove }: { me: string; canApprove: boolean }) {
  const id = useId();
  const qc = useQueryClient();
  // What the last action came to: said once, and it takes the focus unless a field was refused. The form's
  // answer (useFormCall) or a decision's (useNotice), whichever came last.
  const { say, notice, forget } = useNotice();
  const [rejecting, setRejecting] = useState<DestinationView | null>(null);
  const form = useSchemaForm(
    destinationFormSchema,
    { subUid: "", dest: "on_chain", chain: "", address: "", tag: "", label: "" },
    false,
  );
  const { register, control, formState } = form;
  const [subUid, dest] = useWatch({ control, name: ["subUid", "dest"] });
  const waiting = !subUid && canApprove;
  const list = useResourceQuery(
    withdrawalsRoutes.destinations,
    { input: subUid ? { subUid } : { state: "requested" } },
    { queryKey: [WITHDRAWALS_KEY, "destinations", subUid || "waiting"], enabled: Boolean(subUid) || waiting },
  );
  const names = useSubAccountNames((list.data?.items ?? []).map((d) => d.subUid));
  const whose = (d: DestinationView) => (names.get(d.subUid) ? `${names.get(d.subUid)} (${d.subUid})` : d.subUid);
  const settle = () => qc.invalidateQueries({ queryKey: [WITHDRAWALS_KEY] });
  const add = useMutation({
    mutationFn: (input: z.output<typeof destinationFormSchema>) =>
      callResource(withdrawalsRoutes.addDestination, { input }),
    onSettled: settle,
  });
  const { submit, answer, clear } = useFormCall(
    form,
    FIELDS,
    add,
    (d, v) => {
      form.reset({ subUid: v.subUid, dest: v.dest, chain: "", address: "", tag: "", label: "" });
      return `Asked to add “${d.label}”: another person must approve it.`;
    },
    { focusInOrder: true },
  );
  const setNotice = (text: string, tone: "ok" | "error" = "error") => {
    clear();
    say(tone, text);
  };
  const decide = useMutation({
    mutationFn: ({ d, reason }: { d: DestinationView; reason?: string }) =>
      reason === undefined
        ? callResource(withdrawalsRoutes.approveDestination, { params: { id: d.id } })
        : callResource(withdrawalsRoutes.rejectDestination, { params: { id: d.id }, input: { reason } }),
    onSettled: settle,
  });
  const err = (f: (typeof FIELDS)[number]) => formState.errors[f]?.message;
  const field = (f: (typeof FIELDS)[number]) => describedBy(`${id}-${f}`, err(f), false);
  const text = (
    f: "chain" | "address" | "tag" | "label",
    label: string,
    className: string,
    extra: { spellCheck?: boolean } = {},
  ) => (
    <FormField id={`${id}-${f}`} name={f} label={label} error={err(f)}>
      <input className={className} autoComplete="off" {...extra} {...field(f)} {...register(f)} />
    </FormField>
  );

  return (
    <Panel title="Address book" surface={false}>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        A destination is added once another person approves it. A withdrawal to a destination not in the book is flagged
        in the approval queue.
      </p>
      <Form
        noValidate
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => {
          forget();
          return submit(e);
        }}
      >
        <FormField id={`${id}-subUid`} name="subUid" label="Sub-account" error={err("subUid")}>
          <SubAccountField control={control} name="subUid" {...field("subUid")} className={inputClass} />
        </FormField>
        <FormField id={`${id}-dest`} label="Kind" error={err("dest")}>
          <select className={inputClass} {...field("dest")} {...register("dest")}>
            <option value="on_chain">On chain (address)</option>
            <option value="internal_transfer">Internal transfer (UID)</option>
          </select>
        </FormField>
        {dest === "on_chain" ? text("chain", "Chain", inputClass) : null}
        {text("address", dest === "on_chain" ? "Destination address" : "Destination UID", monoInputClass, {
          spellCheck: false,
        })}
        {dest === "on_chain" ? text("tag", "Tag / memo (if any)", monoInputClass) : null}
        {text("label", "Name in the book", inputClass)}
        <div className="flex items-end">
          <button type="submit" className={buttonClass("primary", "sm")} disabled={add.isPending}>
            Add to the book
          </button>
        </div>
      </Form>
      <div data-testid="address-book-notice">{answer ?? notice}</div>
      {subUid || waiting ? (
        <QueryView
          query={list}
          loading={<Loading what="the address book" />}
          empty={(data) =>
            data.items.length === 0 && (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {waiting
                  ? "No destination of any sub-account is waiting for approval."
                  : "No destination in this sub-account's book yet."}
              </p>
            )
          }
        >
          {(data) => (
            <>
              {waiting ? (
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  Waiting for approval, every sub-account (
                  {data.items.length === DESTINATIONS_LIMIT ? `the newest ${DESTINATIONS_LIMIT}` : data.items.length});
                  choose a sub-account to see its whole book.
                </p>
              ) : null}
              <ul
                className="space-y-1 text-sm"
                aria-label={
                  waiting ? "Destinations waiting for approval, every sub-account" : "Destinations in the address book"
                }
              >
                {data.items.map((d) => (
                  <li key={d.id} data-destination-id={d.id} className="flex flex-wrap items-center gap-2">
                    {waiting ? <span>{whose(d)}:</span> : null}
                    <Badge tone={TONE[d.state]}>{d.state === "requested" ? "waiting for approval" : d.state}</Badge>
                    {/* Only a reader of compliance's work is told (the server sends it to no one else). */}
                    {d.listed ? (
                      <Badge tone="error" label={`Listed by ${d.listedBy?.join(", ") ?? "a screening list"}`}>
                        listed: {d.listedBy?.join(", ")}
                      </Badge>
                    ) : null}
                    <strong>{d.label}</strong> <span className="font-mono break-all">{d.address}</span>{" "}
                    {d.chain ? `on ${d.chain}` : "(internal)"} {d.tag ? `tag ${d.tag}` : ""}
                    <span className="text-slate-600 dark:text-slate-400">
                      asked by {d.requestedBy}
                      {d.decidedBy ? `, ${d.state} by ${d.decidedBy}` : ""}
                      {d.rejectReason ? `: “${d.rejectReason}”` : ""}
                      {lockedUntil(d) ? `; counts from ${formatUtc(lockedUntil(d)!)}` : ""}
                    </span>
                    {canApprove && d.state === "requested" && d.requestedBy.toLowerCase() !== me.toLowerCase() ? (
                      <>
                        <button
                          type="button"
                          className={plain}
                          disabled={decide.isPending}
                          aria-label={`Approve ${d.label}${waiting ? ` of ${whose(d)}` : ""}`}
                          onClick={() =>
                            decide.mutate(
                              { d },
                              {
                                onSuccess: (done) =>
                                  setNotice(
                                    lockedUntil(done)
                                      ? `Approved “${d.label}”: it is in the address book of ${whose(d)} ` +
                                          `from ${formatUtc(lockedUntil(done)!)}, once its lock has passed.`
                                      : `Approved “${d.label}”: it is in the address book of ${whose(d)} now.`,
                                    "ok",
                                  ),
                                onError: (e) => setNotice(errorText(e)),
                              },
                            )
                          }
                        >
                          Approve
                        </button>
                        <button
                          type="button"
                          className={plain}
                          disabled={decide.isPending}
                          aria-label={`Reject ${d.label}${waiting ? ` of ${whose(d)}` : ""}`}
                          onClick={() => setRejecting(d)}
                        >
                          Reject
                        </button>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          )}
        </QueryView>
      ) : null}
      {/* The same dialog as a withdrawal's rejection: a labelled reason, checked, refusals on the field. */}
      <RejectDialog
        subject={rejecting}
        title="Reject this destination"
        describe={(d) => (
          <p>
            {d.label}, <span className="font-mono break-all">{d.address}</span>, in the book of {whose(d)},{" "}
            {`asked by ${d.requestedBy}.`}
          </p>
        )}
        pending={decide.isPending}
        onClose={() => setRejecting(null)}
        onReject={(d, reason, onError) =>
          decide.mutate(
            { d, reason },
            {
              onSuccess: () => {
                setNotice(`Rejected “${d.label}”.`, "ok");
                setRejecting(null);
              },
              onError,
            },
          )
        }
      />
    </Panel>
  );
}
