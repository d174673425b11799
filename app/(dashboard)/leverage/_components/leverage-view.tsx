"use client";
import dynamic from "next/dynamic";
import { FormLoading } from "@/components/ui/form-loading";
import { PanelLoading } from "@/components/ui/panel";

// Only team leads get this view (the page shows others a 403). The form (react-hook-form with the catalog's
// schema, and so zod) arrives right after the page, as the withdrawal request form does: in the page's own
// JavaScript it weighed 226 KiB, over the 200 KiB page budget.
const LeverageForm = dynamic(() => import("./leverage-form").then((m) => m.LeverageForm), {
  ssr: false,
  loading: () => <FormLoading title="Set leverage" height={571} />,
});
// The history under the form (the table, the audit log's entries) arrives right after the page: it shows its
// rows only once its query answers anyway.
const LeverageHistory = dynamic(() => import("./leverage-history").then((m) => m.LeverageHistory), {
  ssr: false,
  loading: () => <PanelLoading title="History of leverage changes" />,
});

// The changes waiting for a second lead and the record arrive right after the page, as the history does.
const WaitingLeverageChanges = dynamic(
  () => import("@/components/leverage/waiting-changes").then((m) => m.WaitingLeverageChanges),
  { ssr: false, loading: () => <PanelLoading title="Waiting for a second lead: leverage" height={120} /> },
);
const LeverageRecord = dynamic(() => import("./leverage-record").then((m) => m.LeverageRecord), {
  ssr: false,
  loading: () => <PanelLoading title="Leverage record" height={400} />,
});

export function LeverageView({ me }: { me: string }) {
  return (
    <div className="space-y-8">
      <LeverageForm />
      <WaitingLeverageChanges me={me} />
      <LeverageRecord />
      <LeverageHistory />
    </div>
  );
}
