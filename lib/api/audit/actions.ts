// The audit log's closed vocabulary: every action and outcome a row may have. Part of the API (the audit
// page filters by action), so isomorphic; server/audit refuses to write anything else.
import * as z from "zod/mini";
import "@/lib/zod-english";
import type { OperationId } from "@/lib/platform/catalog";
import { AUDIT_OUTCOME_VALUES } from "./words";

// The eleven platform operations, by catalog id (STYLE rule 4: one name per operation). Listed here
// rather than spread from OPERATION_IDS so z.enum keeps literal types; the check below and a test keep
// the two in step.
const PLATFORM_OPERATION_ACTIONS = [
  "deposits.list",
  "subaccounts.assets",
  "planOrders.history",
  "fills.list",
  "withdrawals.submit",
  "subaccounts.create",
  "rebates.get",
  "market.trades",
  "riskUnits.bind",
  "leverage.set",
  "oiLimits.list",
] as const satisfies readonly OperationId[];

// Compile error if the catalog gains an operation that is not an audit action.
type MissingOperation = Exclude<OperationId, (typeof PLATFORM_OPERATION_ACTIONS)[number]>;
const everyOperationIsAnAction: [MissingOperation] extends [never] ? true : MissingOperation = true;
void everyOperationIsAnAction;

/** Closed list: an action that is not here cannot be written (appendAudit refuses it). */
export const AUDIT_ACTIONS = z.enum([
  "auth.sign-in",
  "auth.sign-in-failed",
  "auth.sign-out",
  "auth.session-refused",
  "request.refused",
  // Anonymous refusals of one address in one minute after its first (server/audit/anonymous-refusals.ts).
  "request.refused.aggregate",
  ...PLATFORM_OPERATION_ACTIONS,
  "export.run",
  "withdrawals.request",
  "withdrawals.approve",
  "withdrawals.reject",
  "withdrawals.reconcile",
  "withdrawals.cancel",
  "destinations.request",
  "destinations.approve",
  "destinations.reject",
  "subaccounts.add",
  "subaccounts.holder",
  "withdrawals.travel-rule-export",
  "ledger.deposit-originator",
  "users.create",
  "users.update",
  "users.reset-password",
  "users.disable",
  "account.change-password",
  "notifications.save-preferences",
  // Webhook endpoints (lib/api/notifications/webhooks.ts).
  "webhooks.create",
  "webhooks.approve",
  "webhooks.set-events",
  "webhooks.rotate",
  "webhooks.disable",
  "webhooks.resend",
  "users.reset-factors",
  "mfa.totp-start",
  "mfa.totp-confirm",
  "mfa.passkey-add",
  "mfa.factor-remove",
  "mfa.recovery-regenerate",
  "mfa.verify",
  "mfa.recovery-use",
  "audit.export",
  "ledger.deposits-export",
  "ledger.check-now",
  "policy.draft",
  "policy.publish",
  "policy.discard",
  "leveragePolicy.draft",
  "leveragePolicy.dry-run",
  "leveragePolicy.publish",
  "leveragePolicy.discard",
  "monitoring.rule-draft",
  "monitoring.rule-activate",
  "monitoring.rule-retire",
  "monitoring.rule-retire-propose",
  "monitoring.rule-retire-withdraw",
  "monitoring.rule-backtest",
  "monitoring.case-update",
  "monitoring.case-close",
  "monitoring.case-note",
  "monitoring.case-attach",
  "monitoring.hold-clear",
  "monitoring.withdrawal-reject",
  "monitoring.snooze",
  "monitoring.snooze-approve",
  "monitoring.snooze-decline",
  "monitoring.alerts-export",
  "monitoring.case-report",
  "monitoring.case-records-export",
  "monitoring.release-propose",
  "monitoring.release-confirm",
  "monitoring.release-withdraw",
  "screening.list-import",
  "screening.version-confirm",
  "screening.version-decline",
  "subaccountKeys.add",
  "subaccountKeys.rotate",
  "subaccountKeys.approve",
  "subaccountKeys.disable",
  // A single leverage change the policy gave a second lead, and its decisions (server/leverage/changes.ts).
  "leverage.request",
  "leverage.approve",
  "leverage.reject",
  "leverage.withdraw",
  // Leverage plans (server/leverage/plans/): each target's own call is audited as leverage.set.
  "leveragePlans.create",
  "leveragePlans.approve",
  "leveragePlans.start",
  "leveragePlans.pause",
  "leveragePlans.resume",
  "leveragePlans.cancel",
  "leveragePlans.retry",
  "leveragePlans.export",
]);
export type AuditAction = z.infer<typeof AUDIT_ACTIONS>;

/** intent = written before the platform is called; success/failure = its outcome; refused = 401/403/422. */
export const AUDIT_OUTCOMES = z.enum(AUDIT_OUTCOME_VALUES);
export type AuditOutcome = z.infer<typeof AUDIT_OUTCOMES>;
