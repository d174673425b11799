"use client";
// One endpoint's deliveries, newest first: state, attempts, the last HTTP status and error, times UTC; "Send again"
// is a new attempt of the same webhook-id.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { Notice } from "@/components/ui/notice";
import { Loading, QueryView } from "@/components/ui/query-view";
import { secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { notificationsRoutes } from "@/lib/api/notifications/routes";
import type { WebhookDeliveryView, WebhookEndpointView } from "@/lib/api/notifications/webhooks";
import { endpointLabel } from "@/lib/api/notifications/webhook-words";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { formatUtc } from "../../users/_components/api";

export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpointView | undefined }) {
  const id = endpoint?.id ?? "0";
  const key = [notificationsRoutes.deliveries.id, id];
  const log = useResourceQuery(
    notificationsRoutes.deliveries,
    { params: { id } },
    { queryKey: key, refetchInterval: 5_000 },
  );
  const qc = useQueryClient();
  const [said, setSaid] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const again = useMutation({
    mutationFn: (delivery: string) => callResource(notificationsRoutes.resend, { params: { id, delivery } }),
    onSuccess: (d) => {
      setSaid({ tone: "ok", text: `${d.messageId} will be sent again now.` });
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => setSaid({ tone: "error", text: errorText(e) }),
  });
  if (!endpoint) return null;
  const columns: ListColumn<WebhookDeliveryView>[] = [
    { header: "Event", names: true, cell: (d) => <span className="font-mono">{d.type}</span> },
    { header: "webhook-id", cell: (d) => <span className="font-mono text-xs">{d.messageId}</span> },
    { header: "State", cell: (d) => d.state },
    { header: "Attempts", numeric: true, cell: (d) => d.attempts },
    { header: "Last HTTP", numeric: true, cell: (d) => d.lastStatus ?? "none" },
    { header: "Last error", cell: (d) => d.lastError ?? "" },
    { header: "Last attempt", cell: (d) => formatUtc(d.lastAttemptAt) },
    { header: "Next attempt", cell: (d) => (d.nextAttemptAt ? formatUtc(d.nextAttemptAt) : "") },
    {
      header: "Actions",
      hiddenHeader: true,
      cell: (d) =>
        d.state === "sent" || d.state === "failed" ? (
          <button
            type="button"
            className={secondaryButton}
            disabled={again.isPending}
            onClick={() => again.mutate(d.id)}
          >
            Send again
          </button>
        ) : null,
    },
  ];
  return (
    <section aria-labelledby="deliveries-title" className="space-y-2">
      <h2 id="deliveries-title" className="text-base font-semibold">
        Deliveries to {endpointLabel(endpoint)}
      </h2>
      {said ? <Notice tone={said.tone}>{said.text}</Notice> : null}
      <QueryView query={log} loading={<Loading what="deliveries" />}>
        {(data) => (
          <ListTable
            label={`Deliveries to ${endpointLabel(endpoint)}, newest first`}
            columns={columns}
            rows={data.items}
            rowKey={(d) => d.id}
            rowData={(d) => ({ "data-delivery": d.messageId, "data-state": d.state })}
            empty="Nothing delivered yet."
          />
        )}
      </QueryView>
    </section>
  );
}
