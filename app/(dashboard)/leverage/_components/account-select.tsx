"use client";
// Which account the leverage is set for: E10 acts on the account whose key signs it. The choice is the page's
// URL state (`account`); the list holds only the keys the server says this person may choose.
import { useQueryStates } from "nuqs";
import { FormField, describedBy, inputClass } from "@/components/ui/form";
import { describeError } from "@/lib/client/api";
import { leverageSearchParams } from "../search-params";
import { accountLabel, useLeverageAccounts } from "./accounts";

export function useLeverageAccount(): [string, (key: string) => void] {
  const [q, setQ] = useQueryStates(leverageSearchParams);
  return [q.account ?? "main", (key) => void setQ({ account: key === "main" ? null : key })];
}

export function AccountSelect({ id }: { id: string }) {
  const accounts = useLeverageAccounts();
  const [account, setAccount] = useLeverageAccount();
  const items = accounts.data ?? [{ key: "main", kind: "main" as const, uid: null, name: null, label: null }];
  // A key in the URL that this person may not choose (or that is gone) is still shown, so nothing is sent for an
  // account the page does not name.
  const unknown = accounts.data && !items.some((a) => a.key === account);
  const error = unknown
    ? `No account with key "${account}" is available to you; choose another`
    : accounts.isError
      ? describeError(accounts.error).title
      : undefined;
  const subs = items.length - 1;
  const hint = accounts.isPending
    ? "Loading the accounts with a configured key…"
    : subs
      ? `The main account, or ${subs === 1 ? "the sub-account" : `one of the ${subs} sub-accounts`} whose own ` +
        `platform key Brokerdesk holds for your role. The change is made with that account's key.`
      : "Only the main account: Brokerdesk holds no sub-account key that your role may use.";
  return (
    <FormField id={id} label="Account" hint={hint} error={error}>
      <select
        className={inputClass}
        {...describedBy(id, error, true)}
        value={account}
        onChange={(e) => setAccount(e.target.value)}
      >
        {unknown ? <option value={account}>{`Key ${account} (not available)`}</option> : null}
        {items.map((a) => (
          <option key={a.key} value={a.key}>
            {accountLabel(a)}
          </option>
        ))}
      </select>
    </FormField>
  );
}
