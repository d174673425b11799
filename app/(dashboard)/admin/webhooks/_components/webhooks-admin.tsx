"use client";
// The webhook endpoints: add one, confirm another admin's (a fresh factor), rotate a secret, disable; the delivery
// log of the one chosen, with "send again".
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { Notice } from "@/components/ui/notice";
import { Loading, QueryView } from "@/components/ui/query-view";
import { secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { notificationsRoutes } from "@/lib/api/notifications/routes";
import type { WebhookEndpointView } from "@/lib/api/notifications/webhooks";
import { endpointLabel } from "@/lib/api/notifications/webhook-words";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { formatUtc } from "../../users/_components/api";
import { CreateWebhookForm } from "./create-webhook-form";
import { DeliveryLog } from "./delivery-log";

const LIST = [notificationsRoutes.list.id];

export function WebhooksAdmin({ me }: { me: string }) {
  const list = useResourceQuery(notificationsRoutes.list, {}, { queryKey: LIST });
  const [chosen, setChosen] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string; secret?: string } | null>(null);
  const qc = useQueryClient();
  const act = useMutation({
    mutationFn: async ({ what, id }: { what: "approve" | "rotate" | "disable"; id: string }) => {
      if (what === "approve")
        return {
          text: `Confirmed: ${endpointLabel(await callResource(notificationsRoutes.approve, { params: { id } }))} now receives its events.`,
        };
      if (what === "disable")
        return {
          text: `Disabled ${endpointLabel(await callResource(notificationsRoutes.disable, { params: { id } }))}.`,
        };
      const r = await callResource(notificationsRoutes.rotate, { params: { id } });
      return {
        text: `New secret for ${endpointLabel(r.endpoint)} (the previous one signs too for 24 hours):`,
        secret: r.secret,
      };
    },
    onSuccess: (r) => {
      setNotice({ tone: "ok", ...r });
      void qc.invalidateQueries({ queryKey: LIST });
    },
    onError: (e) => setNotice({ tone: "error", text: errorText(e) }),
  });
  const button = (what: "approve" | "rotate" | "disable", id: string, label: string) => (
    <button type="button" className={secondaryButton} disabled={act.isPending} onClick={() => act.mutate({ what, id })}>
      {label}
    </button>
  );
  const columns: ListColumn<WebhookEndpointView>[] = [
    {
      header: "URL",
      names: true,
      cell: (e) => <span className="inline-block min-w-56 font-mono break-all">{endpointLabel(e)}</span>,
    },
    { header: "Audience", cell: (e) => e.audienceRole },
    { header: "Format", cell: (e) => e.format },
    {
      header: "Events",
      cell: (e) => (
        <>
          <span className="font-mono text-xs">{e.events.join(", ") || "none yet"}</span>
          {e.proposedEvents ? (
            <p className="text-xs">
              Asked by {e.proposedBy}: <span className="font-mono">{e.proposedEvents.join(", ")}</span>
            </p>
          ) : null}
        </>
      ),
    },
    {
      header: "State",
      cell: (e) => (
        <Badge tone={e.state === "active" ? "ok" : e.state === "proposed" ? "warn" : "neutral"}>
          {e.state === "proposed" ? "waiting for a second admin" : e.state}
        </Badge>
      ),
    },
    { header: "Added", cell: (e) => `${formatUtc(e.createdAt)} by ${e.createdBy}` },
    {
      header: "Actions",
      hiddenHeader: true,
      cell: (e) => (
        <div className="flex flex-wrap gap-2">
          {e.proposedEvents && e.proposedBy !== me ? button("approve", e.id, "Confirm") : null}
          <button type="button" className={secondaryButton} onClick={() => setChosen(e.id)}>
            Deliveries
          </button>
          {e.state !== "disabled" ? button("rotate", e.id, "Rotate secret") : null}
          {e.state !== "disabled" ? button("disable", e.id, "Disable") : null}
        </div>
      ),
    },
  ];
  return (
    <div className="space-y-6">
      <QueryView query={list} loading={<Loading what="webhook endpoints" />}>
        {(data) => (
          <>
            <CreateWebhookForm offered={data.offered} />
            {notice ? (
              <Notice tone={notice.tone} focus>
                {notice.text} {notice.secret ? <code data-testid="webhook-secret">{notice.secret}</code> : null}
              </Notice>
            ) : null}
            <section aria-labelledby="webhooks-title">
              <h2 id="webhooks-title" className="mb-2 text-base font-semibold">
                Endpoints
              </h2>
              <ListTable
                label="Webhook endpoints with their audience, format, events and state"
                columns={columns}
                rows={data.items}
                rowKey={(e) => e.id}
                rowData={(e) => ({ "data-endpoint": e.url })}
                empty="No webhook endpoints yet."
              />
            </section>
            {chosen ? <DeliveryLog endpoint={data.items.find((e) => e.id === chosen)} /> : null}
          </>
        )}
      </QueryView>
    </div>
  );
}
