import { catalog } from "@/lib/platform/catalog";
import { HealthPanel } from "@/components/health-panel";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const ops = Object.values(catalog);
  return (
    <main className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="text-2xl font-bold">Brokerdesk</h1>
      <p className="text-slate-700 dark:text-slate-300">
        The back office of the broker&apos;s ND main account: sub-accounts, assets, withdrawals, rebates, risk units,
        leverage and market data, through the platform&apos;s signed API.
      </p>
      <HealthPanel />
      <section aria-labelledby="ops-title">
        <h2 id="ops-title" className="mb-2 text-base font-semibold">
          Platform operations
        </h2>
        <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">The eleven platform operations Brokerdesk uses, with their limits</caption>
            <thead className="bg-slate-50 dark:bg-slate-900">
              <tr>
                <th scope="col" className="px-3 py-2">Code</th>
                <th scope="col" className="px-3 py-2">Operation</th>
                <th scope="col" className="px-3 py-2">Request</th>
                <th scope="col" className="px-3 py-2">Rate limit</th>
                <th scope="col" className="px-3 py-2">Permission</th>
              </tr>
            </thead>
            <tbody>
              {ops.map((op) => (
                <tr key={op.id} className="border-t border-slate-200 dark:border-slate-700">
                  <td className="px-3 py-2 font-mono">{op.code}</td>
                  <td className="px-3 py-2">
                    {op.title} <span className="font-mono text-xs text-slate-600 dark:text-slate-400">{op.id}</span>
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">
                    {op.method} {op.path}
                  </td>
                  <td className="px-3 py-2 tabular">
                    {op.rateLimit.count}/s per {op.rateLimit.scope === "uid" ? "UID" : "IP"}
                  </td>
                  <td className="px-3 py-2 font-mono text-xs">{op.permission}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </main>
  );
}
