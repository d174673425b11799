"use client";
// /admin/keys: the sub-account keys Brokerdesk holds (sealed in its database) and those from the environment, the
// form to add one, and each key's approve, rotate and disable.
import { useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { Loading, QueryView } from "@/components/ui/query-view";
import { ListTableFrame } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { subaccountKeysRoutes as routes } from "@/lib/api/subaccount-keys/routes";
import { KeyForm } from "./key-form";
import { KeyRow } from "./key-row";

const HEADERS = ["Sub-account", "Source", "State", "Version", "Added", "Approved"].map((header) => ({ header }));

type Props = { me: string; canWrite: boolean; canApprove: boolean };

export function KeysAdmin({ me, canWrite, canApprove }: Props) {
  const qc = useQueryClient();
  const list = useResourceQuery(routes.list, {}, { queryKey: [routes.list.id] });
  const refresh = () => void qc.invalidateQueries({ queryKey: [routes.list.id] });
  return (
    <div className="space-y-6">
      {canWrite && (
        <Panel title="Add a sub-account's API key" surface={false}>
          <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
            The key is sealed at once and signs nothing until another admin approves it. In simulator mode the simulator
            learns the same key, as the platform would have made it.
          </p>
          <KeyForm
            withUid
            submitLabel="Add key"
            send={(input) => callResource(routes.add, { input: input as never })}
            done={(view) => {
              refresh();
              return `Added the key of sub-account ${view.uid} (v${view.pending?.version ?? 1}): it waits for a second admin.`;
            }}
          />
        </Panel>
      )}
      <section aria-labelledby="keys-list-title">
        <h2 id="keys-list-title" className="mb-2 text-base font-semibold">
          Keys
        </h2>
        <QueryView query={list} loading={<Loading what="keys" />}>
          {(data) => (
            <>
              {!data.sealing && (
                <p role="status" className="mb-2 text-sm text-amber-800 dark:text-amber-200">
                  KEY_SEALING_SECRET is not set: no key can be held in Brokerdesk&apos;s database.
                </p>
              )}
              <ListTableFrame
                label="Sub-account API keys with their source, state, version, who added and who approved them"
                headers={canWrite || canApprove ? [...HEADERS, { header: "Actions" }] : HEADERS}
              >
                {data.keys.map((k) => (
                  <KeyRow
                    key={k.name}
                    view={k}
                    me={me}
                    canWrite={canWrite}
                    canApprove={canApprove}
                    onChange={refresh}
                  />
                ))}
              </ListTableFrame>
            </>
          )}
        </QueryView>
      </section>
    </div>
  );
}
