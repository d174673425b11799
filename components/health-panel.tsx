"use client";

import { useQuery } from "@tanstack/react-query";
import { healthSchema } from "@/lib/api/health";
import { Badge } from "@/components/ui/badge";

async function fetchHealth() {
  const res = await fetch("/api/health", { cache: "no-store" });
  return healthSchema.parse(await res.json());
}

export function HealthPanel() {
  const q = useQuery({ queryKey: ["health"], queryFn: fetchHealth, refetchInterval: 30_000 });
  return (
    <section aria-labelledby="health-title" className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <h2 id="health-title" className="text-base font-semibold">
        Platform health
      </h2>
      {/* Three lines kept from the first paint: the answer wraps to that in the home page's narrow column. */}
      <div role="status" aria-live="polite" className="mt-2 min-h-15 text-sm">
        {q.isPending ? (
          <span
            className="inline-block h-4 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-700"
            aria-label="Checking the platform"
          />
        ) : q.isError ? (
          <p className="text-red-700 dark:text-red-300">Brokerdesk&apos;s health check failed: {q.error.message}</p>
        ) : q.data.platform.reachable ? (
          <p className="flex items-center gap-2">
            <Badge tone="ok">UP</Badge> The platform answers ({q.data.platform.latencyMs} ms). Checked{" "}
            {q.data.checkedAt.replace("T", " ").slice(0, 19)} UTC.
          </p>
        ) : (
          <p className="flex items-center gap-2">
            <Badge tone="error">DOWN</Badge> The platform does not answer: {q.data.platform.code ?? "error"}{" "}
            {q.data.platform.message}
          </p>
        )}
        {q.data && !q.data.database.reachable ? (
          <p className="mt-1 flex items-center gap-2">
            <Badge tone="error">DOWN</Badge> Brokerdesk&apos;s database does not answer (
            {q.data.database.code ?? "error"}): nothing can be recorded until it is back.
          </p>
        ) : null}
      </div>
    </section>
  );
}
