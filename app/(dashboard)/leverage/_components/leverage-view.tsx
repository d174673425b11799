"use client";
import dynamic from "next/dynamic";
import { TimeZoneProvider } from "@/components/data-table/time";

// Only team leads get this view (the page shows others a 403): loaded when it is rendered, so the form
// and the history table are not part of the page for everyone else (issue 7, page weight).
const LeverageForm = dynamic(() => import("./leverage-form").then((m) => m.LeverageForm));
const LeverageHistory = dynamic(() => import("./leverage-history").then((m) => m.LeverageHistory));

export function LeverageView() {
  return (
    <TimeZoneProvider>
      <div className="space-y-8">
        <LeverageForm />
        <LeverageHistory />
      </div>
    </TimeZoneProvider>
  );
}
