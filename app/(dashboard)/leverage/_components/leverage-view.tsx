"use client";
import { TimeZoneProvider } from "@/components/data-table/time";
import { LeverageForm } from "./leverage-form";
import { LeverageHistory } from "./leverage-history";

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
