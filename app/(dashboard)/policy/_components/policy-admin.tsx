"use client";
// The money-out policy page: the versions (the published one's rules in words), and for admins a draft's
// rules (JSON, checked by the server with the schema of lib/policy.ts), its dry run over past withdrawals and
// the publish of another admin's draft. The server refuses whatever the buttons would not offer.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callResource } from "@/lib/api/call";
import { type DryRunReply, type PolicyVersionView } from "@/lib/api/policy";
import { errorText, ApiError } from "@/lib/client/api";
import { ruleWords } from "@/lib/policy";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { Form } from "@/components/ui/form-element";
import { ListTable } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { buttonClass, fieldErrorClass, labelClass, monoInputClass, noticeClass } from "@/components/ui/styles";
import { versionActions, versionColumns } from "@/components/policy/version-columns";
import { DryRunResult } from "./dry-run-result";
import { policyRoutes } from "@/lib/api/policy/routes";

const KEY = [policyRoutes.list.id];

/** What the example asks for: USDT over 50,000 of value, or to a new address, needs a lead and compliance. */
export const EXAMPLE_RULES = [
  {
    name: "USDT over 50,000 value, or to a new address",
    match: "any",
    when: [
      { kind: "value", over: "50000" },
      { kind: "destination", is: ["new_address"] },
    ],
    then: {
      kind: "allow",
      approvals: [
        { role: "lead", count: 1 },
        { role: "compliance", count: 1 },
      ],
    },
  },
];

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: `The rules are not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function failureOf(e: unknown): string[] {
  if (e instanceof ApiError && e.fieldErrors?.rules?.length) return e.fieldErrors.rules;
  return [errorText(e)];
}

export function PolicyAdmin({ me, canDraft, canPublish }: { me: string; canDraft: boolean; canPublish: boolean }) {
  const qc = useQueryClient();
  const list = useResourceQuery(policyRoutes.list, {}, { queryKey: KEY });
  const [text, setText] = useState(() => JSON.stringify(EXAMPLE_RULES, null, 2));
  const [note, setNote] = useState("");
  const [last, setLast] = useState("100");
  const [problems, setProblems] = useState<string[]>([]);
  const [said, setSaid] = useState<string | null>(null);
  const [run, setRun] = useState<DryRunReply | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: KEY });

  const draft = useMutation({
    mutationFn: (rules: unknown) => callResource(policyRoutes.draft, { input: { rules, note } }),
    onSettled: refresh,
  });
  const dry = useMutation({
    mutationFn: (rules: unknown) => callResource(policyRoutes.dryRun, { input: { rules, last: Number(last) } }),
  });
  const decide = useMutation({
    mutationFn: ({ version, verb }: { version: number; verb: "publish" | "discard" }) =>
      verb === "publish"
        ? callResource(policyRoutes.publish, { params: { version: String(version) } })
        : callResource(policyRoutes.discard, { params: { version: String(version) } }),
    onSettled: refresh,
  });

  const withRules = (fn: (rules: unknown) => Promise<unknown>) => {
    setSaid(null);
    const parsed = parseJson(text);
    if (!parsed.ok) return setProblems([parsed.message]);
    setProblems([]);
    fn(parsed.value).catch((e: unknown) => setProblems(failureOf(e)));
  };

  return (
    <div className="space-y-6">
      <div aria-live="polite">
        {said ? (
          <p role="status" className={noticeClass("ok")} data-testid="policy-said">
            {said}
          </p>
        ) : null}
      </div>
      <Panel title="Versions" surface={false}>
        <QueryView query={list} loading={<Loading what="the policy's versions" />}>
          {(data) => (
            <ListTable<PolicyVersionView>
              label="Versions of the money-out policy, newest first"
              frame="box"
              rows={data.items}
              rowKey={(p) => String(p.version)}
              rowData={(p) => ({ "data-version": String(p.version), "data-state": p.state })}
              empty="No version yet: every withdrawal needs one lead other than the requester."
              columns={[
                ...versionColumns<PolicyVersionView>(),
                {
                  header: "Rules, first match wins",
                  className: "max-w-xl",
                  cell: (p) => (
                    <ol className="list-decimal space-y-1 pl-4 text-xs">
                      {p.rules.map((r) => (
                        <li key={r.name}>
                          <span className="font-medium">{r.name}</span>: {ruleWords(r)}
                        </li>
                      ))}
                      <li>Otherwise: one lead</li>
                    </ol>
                  ),
                },
                versionActions({
                  me,
                  canPublish,
                  canDraft,
                  decide,
                  say: setSaid,
                  publishedWords: "it decides new withdrawals now.",
                }),
              ]}
            />
          )}
        </QueryView>
      </Panel>

      <Panel title={canDraft ? "Draft a version" : "Try rules on past withdrawals"} surface={false}>
        <Form
          className="space-y-3"
          aria-label="Policy rules"
          onSubmit={() =>
            withRules((rules) =>
              draft
                .mutateAsync(rules)
                .then((v) => setSaid(`Drafted version ${v.version}: another admin publishes it.`)),
            )
          }
        >
          <label className="block space-y-1">
            <span className={labelClass}>
              Rules (JSON, in order; kinds: coin, amount, value, destination, subaccount, requester, velocity)
            </span>
            <textarea
              className={`${monoInputClass} h-64`}
              value={text}
              spellCheck={false}
              aria-invalid={problems.length > 0}
              aria-describedby="policy-problems"
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <ul id="policy-problems" className="space-y-1" role={problems.length ? "alert" : undefined}>
            {problems.map((p) => (
              <li key={p} className={fieldErrorClass}>
                {p}
              </li>
            ))}
          </ul>
          {canDraft ? (
            <label className="block space-y-1">
              <span className={labelClass}>Note (optional)</span>
              <input
                className={monoInputClass}
                value={note}
                maxLength={500}
                onChange={(e) => setNote(e.target.value)}
              />
            </label>
          ) : null}
          <div className="flex flex-wrap items-end gap-3">
            <label className="space-y-1">
              <span className={labelClass}>Dry run over the last</span>
              <input
                className={`${monoInputClass} w-28`}
                inputMode="numeric"
                value={last}
                onChange={(e) => setLast(e.target.value)}
                aria-label="Number of past withdrawals for the dry run"
              />
            </label>
            <button
              type="button"
              className={buttonClass("secondary")}
              disabled={dry.isPending}
              onClick={() => withRules((rules) => dry.mutateAsync(rules).then(setRun))}
            >
              Dry run
            </button>
            {canDraft ? (
              <button type="submit" className={buttonClass("primary")} disabled={draft.isPending}>
                Save as draft
              </button>
            ) : null}
          </div>
        </Form>
        {run ? <DryRunResult run={run} /> : null}
      </Panel>
    </div>
  );
}
