"use client";
import dynamic from "next/dynamic";
import { FormLoading } from "@/components/ui/form-loading";
import { PanelLoading } from "@/components/ui/panel";
import { WithdrawalLedger } from "./ledger";
import type { Role } from "@/lib/rbac";
import { APPROVERS_HEIGHT, QUEUE_HEIGHT } from "./panel-heights";

// Loaded apart from the page (page weight): the request form (react-hook-form and the request
// schema) arrives right after the page; the approval queue only for leads, the one role that sees it.
// Its place is kept at the form's height in a 1,350-px-wide window, the Travel Rule's fieldset included (on chain is
// the default destination): a shorter place moved everything below it when the form arrived (0.107 as a lead).
const RequestForm = dynamic(() => import("./request-form").then((m) => m.RequestForm), {
  ssr: false,
  loading: () => <FormLoading title="Request a withdrawal" height={795} />,
});
// The approval queue and the approvers (a lead's: react-hook-form for the type-to-confirm and reject dialogs)
// arrive right after the page too; both show their rows only once their queries answer anyway.
const ApprovalQueue = dynamic(() => import("./approval-queue").then((m) => m.ApprovalQueue), {
  ssr: false,
  loading: () => <PanelLoading title="Approval queue" height={QUEUE_HEIGHT} />,
});
// A broker's own requests and the address book (react-hook-form) arrive right after the page, as the form does.
const MyRequests = dynamic(() => import("./my-requests").then((m) => m.MyRequests), {
  ssr: false,
  loading: () => <PanelLoading title="Your requests" />,
});
const AddressBook = dynamic(() => import("./address-book").then((m) => m.AddressBook), {
  ssr: false,
  loading: () => <PanelLoading title="Address book" height={200} />,
});
// Single leverage changes the leverage policy gave a second lead wait beside the withdrawals (leads only).
const WaitingLeverageChanges = dynamic(
  () => import("@/components/leverage/waiting-changes").then((m) => m.WaitingLeverageChanges),
  { ssr: false, loading: () => <PanelLoading title="Waiting for a second lead: leverage" height={120} /> },
);
const ApproversPanel = dynamic(() => import("./approvers-panel").then((m) => m.ApproversPanel), {
  ssr: false,
  loading: () => <PanelLoading title="Approvers" height={APPROVERS_HEIGHT} />,
});

/** Brokers request; leads decide and reconcile; compliance decides where the money-out policy asks for it. */
export function WithdrawalsView({
  me,
  role,
  canRequest,
  canApprove,
  canSetLeverage = false,
}: {
  me: string;
  role: Role;
  canRequest: boolean;
  canApprove: boolean;
  /** A lead: the leverage changes waiting for a second lead are in the queue too. */
  canSetLeverage?: boolean;
}) {
  return (
    <div className="space-y-6">
      {canRequest ? <RequestForm /> : null}
      {canRequest ? <MyRequests me={me} /> : null}
      {canApprove ? <ApprovalQueue me={me} role={role} /> : null}
      {canSetLeverage ? <WaitingLeverageChanges me={me} /> : null}
      {canApprove ? <ApproversPanel me={me} /> : null}
      {canRequest ? <AddressBook me={me} canApprove={canApprove} /> : null}
      <section aria-labelledby="withdrawal-ledger-title" className="space-y-2">
        <h2 id="withdrawal-ledger-title" className="text-base font-semibold">
          Ledger
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="ledger-scope">
          Only withdrawals requested through Brokerdesk are here. Withdrawals made outside Brokerdesk (on the platform
          directly, or with another tool) cannot be seen: the platform has no operation that lists them.
        </p>
        <WithdrawalLedger />
      </section>
    </div>
  );
}
