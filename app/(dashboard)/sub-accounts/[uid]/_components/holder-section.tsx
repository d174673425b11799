"use client";
// The sub-account's holder (IVMS101): the Travel Rule's originator its on-chain withdrawals carry, copied into
// each request when it is made. Brokers record it (as they create sub-accounts); every change is audited.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { registryRoutes } from "@/lib/api/registry/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import type { Ivms101Person } from "@/lib/ivms101";
import { personWords } from "@/lib/ivms101-words";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { hintClass } from "@/components/ui/styles";
import { IvmsPersonForm } from "@/app/(dashboard)/_components/ivms-person-form";
import { formatUtc } from "@/lib/format";

export function HolderSection({ uid, mayEdit }: { uid: string; mayEdit: boolean }) {
  const q = useResourceQuery(registryRoutes.holder, { params: { uid } });
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (holder: Ivms101Person) =>
      callResource(registryRoutes.setHolder, { params: { uid }, input: { holder } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [registryRoutes.holder.id] }),
  });
  return (
    <Panel title="Holder (the Travel Rule's originator)">
      <QueryView query={q} loading={<Loading what="the holder" />}>
        {(h) => (
          <div className="space-y-3 text-sm" data-testid="holder">
            {h.holder ? (
              <p>
                {personWords(h.holder as Ivms101Person)}
                {h.updatedBy ? `, recorded by ${h.updatedBy} at ${h.updatedAt ? formatUtc(h.updatedAt) : "—"}` : ""}
              </p>
            ) : (
              <p className={hintClass}>
                No holder recorded: this sub-account&apos;s on-chain withdrawals are refused until one is (the Travel
                Rule&apos;s originator comes from it).
              </p>
            )}
            {mayEdit ? (
              <IvmsPersonForm
                key={h.updatedAt ?? "none"}
                initial={(h.holder as Ivms101Person | null) ?? null}
                submitLabel="Save holder"
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
