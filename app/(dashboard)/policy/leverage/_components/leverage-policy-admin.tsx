"use client";
// The leverage policy page: the published version's limits in words (what every reader, leads first, needs
// before filling a leverage form), the versions, and for admins a draft's rules as an ordered list, its dry run
// over the last days' changes and the publish of another admin's draft. The server refuses whatever the buttons
// would not offer.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callResource } from "@/lib/api/call";
import type { LeverageDryRunReply, LeveragePolicyView } from "@/lib/api/leverage-policy";
import { leveragePolicyRoutes } from "@/lib/api/leverage-policy/routes";
import { errorText, ApiError } from "@/lib/client/api";
import { leverageRuleWords, type LeverageRule } from "@/lib/leverage-policy";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { IsoTime } from "@/components/data-table/time";
import { versionActions, versionColumns } from "@/components/policy/version-columns";
import { Form } from "@/components/ui/form-element";
import { ListTable } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { buttonClass, fieldErrorClass, labelClass, monoInputClass, noticeClass } from "@/components/ui/styles";
import { LeverageDryRunResult } from "./dry-run-result";
import { RuleList, rowOf, rulesOf, type RuleRow } from "./rule-list";

const KEY = [leveragePolicyRoutes.list.id];

/** What a risk desk might start from: BTCUSDT tighter than the rest of USDT futures, and a cap on everything. */
export const EXAMPLE_RULES: LeverageRule[] = [
  {
    name: "BTC",
    productType: "USDT-FUTURES",
    symbol: "BTCUSDT",
    maxLeverage: 20,
    secondLeadAt: 10,
    planSecondLeadAt: 100,
  },
  { name: "USDT futures", productType: "USDT-FUTURES", symbol: "*", maxLeverage: 50, secondLeadAt: 25 },
  { name: "Everything else", productType: "*", symbol: "*", maxLeverage: 20 },
];

function failureOf(e: unknown): string[] {
  if (e instanceof ApiError && e.fieldErrors) {
    const all = Object.entries(e.fieldErrors).flatMap(([field, list]) =>
      field === "rules" ? list : list.map((m) => `${field}: ${m}`),
    );
    if (all.length) return all;
  }
  return [errorText(e)];
}

function RulesInWords({ rules, testId }: { rules: readonly LeverageRule[]; testId?: string }) {
  return (
    <ol className="list-decimal space-y-1 pl-5 text-sm" data-testid={testId}>
      {rules.map((r) => (
        <li key={r.name}>
          <span className="font-medium">{r.name}</span>: {leverageRuleWords(r)}
        </li>
      ))}
      <li>Otherwise: allowed</li>
    </ol>
  );
}

export function LeveragePolicyAdmin({
  me,
  canDraft,
  canPublish,
}: {
  me: string;
  canDraft: boolean;
  canPublish: boolean;
}) {
  const qc = useQueryClient();
  const list = useResourceQuery(leveragePolicyRoutes.list, {}, { queryKey: KEY });
  const [rows, setRows] = useState<RuleRow[]>(() => EXAMPLE_RULES.map((r) => rowOf(r)));
  const [note, setNote] = useState("");
  const [days, setDays] = useState("90");
  const [problems, setProblems] = useState<string[]>([]);
  const [said, setSaid] = useState<string | null>(null);
  const [run, setRun] = useState<LeverageDryRunReply | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: KEY });

  const draft = useMutation({
    mutationFn: () => callResource(leveragePolicyRoutes.draft, { input: { rules: rulesOf(rows), note } }),
    onSettled: refresh,
  });
  const dry = useMutation({
    mutationFn: () =>
      callResource(leveragePolicyRoutes.dryRun, {
        input: { rules: rulesOf(rows), days: /^\d+$/.test(days.trim()) ? Number(days) : (days as never) },
      }),
  });
  const decide = useMutation({
    mutationFn: ({ version, verb }: { version: number; verb: "publish" | "discard" }) =>
      verb === "publish"
        ? callResource(leveragePolicyRoutes.publish, { params: { version: String(version) } })
        : callResource(leveragePolicyRoutes.discard, { params: { version: String(version) } }),
    onSettled: refresh,
  });
  const attempt = (p: Promise<unknown>) => {
    setSaid(null);
    setProblems([]);
    p.catch((e: unknown) => setProblems(failureOf(e)));
  };

  return (
    <div className="space-y-6">
      <div aria-live="polite">
        {said ? (
          <p role="status" className={noticeClass("ok")} data-testid="leverage-policy-said">
            {said}
          </p>
        ) : null}
      </div>
      <Panel title="The limits in force" surface={false}>
        <QueryView query={list} loading={<Loading what="the limits in force" />}>
          {(data) => {
            const published = data.items.find((p) => p.state === "published");
            return (
              <>
                {published ? (
                  <div className="space-y-2" data-testid="leverage-policy-published">
                    <p className="text-sm">
                      Version {published.version}, published <IsoTime iso={published.publishedAt!} /> by{" "}
                      {published.publishedBy}. The first rule that matches the product type and symbol of a change
                      decides.
                    </p>
                    <RulesInWords rules={published.rules} />
                  </div>
                ) : (
                  <p className="text-sm" data-testid="leverage-policy-published">
                    No version is published: every leverage change is allowed.
                  </p>
                )}
              </>
            );
          }}
        </QueryView>
      </Panel>
      <Panel title="Versions" surface={false}>
        <QueryView query={list} loading={<Loading what="the leverage policy's versions" />}>
          {(data) => (
            <ListTable<LeveragePolicyView>
              label="Versions of the leverage policy, newest first"
              frame="box"
              rows={data.items}
              rowKey={(p) => String(p.version)}
              rowData={(p) => ({ "data-version": String(p.version), "data-state": p.state })}
              empty="No version yet."
              columns={[
                ...versionColumns<LeveragePolicyView>(),
                {
                  header: "Rules, first match wins",
                  className: "max-w-xl",
                  cell: (p) => <RulesInWords rules={p.rules} />,
                },
                versionActions({
                  me,
                  canPublish,
                  canDraft,
                  decide,
                  say: setSaid,
                  publishedWords: "it judges every leverage change now.",
                }),
              ]}
            />
          )}
        </QueryView>
      </Panel>

      {canDraft ? (
        <Panel title="Draft a version" surface={false}>
          <Form
            className="space-y-3"
            aria-label="Leverage policy rules"
            onSubmit={() =>
              attempt(
                draft.mutateAsync().then((v) => setSaid(`Drafted version ${v.version}: another admin publishes it.`)),
              )
            }
          >
            <RuleList rows={rows} onChange={setRows} />
            <ul id="leverage-policy-problems" className="space-y-1" role={problems.length ? "alert" : undefined}>
              {problems.map((p) => (
                <li key={p} className={fieldErrorClass}>
                  {p}
                </li>
              ))}
            </ul>
            <label className="block space-y-1">
              <span className={labelClass}>Note (optional)</span>
              <input
                className={monoInputClass}
                value={note}
                maxLength={500}
                onChange={(e) => setNote(e.target.value)}
              />
            </label>
            <div className="flex flex-wrap items-end gap-3">
              <label className="space-y-1">
                <span className={`${labelClass} block`}>Dry run over the last (days, at most 90)</span>
                <input
                  className={`${monoInputClass} w-28`}
                  inputMode="numeric"
                  value={days}
                  onChange={(e) => setDays(e.target.value)}
                />
              </label>
              <button
                type="button"
                className={buttonClass("secondary")}
                disabled={dry.isPending}
                onClick={() => attempt(dry.mutateAsync().then(setRun))}
              >
                Dry run
              </button>
              <button type="submit" className={buttonClass("primary")} disabled={draft.isPending}>
                Save as draft
              </button>
            </div>
          </Form>
          {run ? <LeverageDryRunResult run={run} /> : null}
        </Panel>
      ) : null}
    </div>
  );
}
