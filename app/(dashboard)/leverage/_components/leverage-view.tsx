"use client";
import dynamic from "next/dynamic";
import { PanelLoading } from "@/components/ui/panel";

// Only team leads get this view (the page shows others a 403): loaded when it is rendered, so the form
// and the history table are not part of the page for everyone else (issue 7, page weight).
const LeverageForm = dynamic(() => import("./leverage-form").then((m) => m.LeverageForm));
// The history under the form (the table, the audit log's entries) arrives right after the page: it shows its
// rows only once its query answers anyway.
const LeverageHistory = dynamic(() => import("./leverage-history").then((m) => m.LeverageHistory), {
  ssr: false,
  loading: () => <PanelLoading title="History of leverage changes" />,
});

export function LeverageView() {
  return (
    <div className="space-y-8">
      <LeverageForm />
      <LeverageHistory />
    </div>
  );
}
