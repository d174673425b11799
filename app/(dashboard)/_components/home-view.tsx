// The home page's cards: what each role needs first, the platform's health for all, then the role's own cards.
import { HealthPanel } from "@/components/health-panel";
import { frameClass } from "@/components/shell/page-frame";
import { can } from "@/lib/rbac";
import type { StaffSession } from "@/server/auth/session";
import { PendingWithdrawals } from "./pending-withdrawals";
import { PlatformOperations } from "./platform-operations";
import { RecentDeposits } from "./recent-deposits";
import { Shortcuts } from "./shortcuts";
import { StaffSummary } from "./staff-summary";

export function HomeView({ session }: { session: StaffSession }) {
  const { role } = session;
  return (
    <div className={frameClass()}>
      <div>
        <h1 className="text-2xl font-bold">Home</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Signed in as {session.name ?? session.email} ({role}). Times are in UTC.
        </p>
      </div>
      {/* Two columns from xl (the role's lists on the left, health and links on the right); one column
          below, where `contents` lets the order-* classes put health first and the lists next. */}
      <div className="flex flex-col gap-4 xl:grid xl:grid-cols-3 xl:items-start">
        <div className="contents xl:col-span-2 xl:flex xl:min-w-0 xl:flex-col xl:gap-4">
          {can(role, "withdrawals.approve") && (
            <div className="order-2 min-w-0 xl:order-none">
              <PendingWithdrawals currentEmail={session.email} />
            </div>
          )}
          {can(role, "deposits.read") && (
            <div className="order-3 min-w-0 xl:order-none">
              <RecentDeposits />
            </div>
          )}
        </div>
        <div className="contents xl:flex xl:min-w-0 xl:flex-col xl:gap-4">
          {/* HealthPanel draws its own frame; the wrapper gives it the cards' surface. */}
          <div className="order-1 min-w-0 rounded-lg bg-white dark:bg-slate-900 xl:order-none">
            <HealthPanel />
          </div>
          <div className="order-4 min-w-0 xl:order-none">
            <Shortcuts role={role} />
          </div>
          {can(role, "users.read") && (
            <div className="order-5 min-w-0 xl:order-none">
              <StaffSummary />
            </div>
          )}
        </div>
      </div>
      <PlatformOperations />
    </div>
  );
}
