"use client";
// The Travel Rule on the way in: who sent the deposit, as compliance recorded it (an IVMS101 originator). A
// monitoring rule ("deposit above X without originator data after N days") flags the deposits still without it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { ledgerRoutes } from "@/lib/api/ledger/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { hintClass } from "@/components/ui/styles";
import { IvmsPersonForm } from "@/app/(dashboard)/_components/ivms-person-form";
import { personWords } from "@/lib/ivms101-words";
import type { Ivms101Person } from "@/lib/ivms101";
import { formatUtc } from "@/lib/format";

export function OriginatorPanel({ orderId, mayRecord }: { orderId: string; mayRecord: boolean }) {
  const q = useResourceQuery(ledgerRoutes.originator, { params: { orderId } });
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (person: Ivms101Person) =>
      callResource(ledgerRoutes.setOriginator, {
        params: { orderId },
        input: { originator: { originatorPersons: [person] } },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [ledgerRoutes.originator.id] }),
  });
  return (
    <Panel title="Originator (Travel Rule)">
      <QueryView query={q} loading={<Loading what="the deposit's originator" />}>
        {(o) => (
          <div className="space-y-3 text-sm" data-testid="deposit-originator">
            {o.originator ? (
              <p>
                {o.originator.originatorPersons.map((p) => personWords(p as Ivms101Person)).join("; ")}, recorded by{" "}
                {o.recordedBy} at {o.recordedAt ? formatUtc(o.recordedAt) : "—"}
              </p>
            ) : (
              <p className={hintClass}>No originator data recorded for this deposit yet.</p>
            )}
            {mayRecord ? (
              <IvmsPersonForm
                key={o.recordedAt ?? "none"}
                initial={(o.originator?.originatorPersons[0] as Ivms101Person | undefined) ?? null}
                submitLabel="Record originator"
                pending={save.isPending}
                error={save.error}
                onSubmit={(p) => save.mutate(p)}
              />
            ) : null}
          </div>
        )}
      </QueryView>
    </Panel>
  );
}
