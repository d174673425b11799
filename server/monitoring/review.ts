import "server-only";
// A case's review deadline: it opened, and compliance has MONITORING_REVIEW_DAYS[its highest alert's severity]
// days to review it. Computed in SQL where it is read (so a changed setting applies to every open case), and
// filtered on it (/alerts' "overdue").
import { env } from "@/lib/env";

const RANK = `CASE %s WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END`;

/** The highest severity of case `c`'s alerts ('high', 'medium', 'low'; null for a case without alerts). */
export const caseSeveritySql = (c: string) =>
  `(SELECT CASE max(${RANK.replace("%s", "s.severity")}) WHEN 3 THEN 'high' WHEN 2 THEN 'medium' WHEN 1 THEN 'low' END
      FROM monitoring_alerts s WHERE s.case_id = ${c}.id)`;

/** When case `c`'s review is due. The days are whole numbers from the validated environment, never input. */
export function caseDueSql(c: string, days = env.monitoringReviewDays): string {
  const d = (n: number) => String(Math.trunc(Number(n)));
  return `(${c}.opened_at + (CASE ${caseSeveritySql(c)} WHEN 'high' THEN ${d(days.high)} WHEN 'medium' THEN ${d(
    days.medium,
  )} ELSE ${d(days.low)} END) * interval '1 day')`;
}

/** Alert `a`'s case is not closed and past its review deadline. */
export const overdueSql = (a: string) =>
  `${a}.case_id IN (SELECT c.id FROM monitoring_cases c WHERE c.status <> 'closed' AND ${caseDueSql("c")} < now())`;
