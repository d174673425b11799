import { can } from "@/lib/rbac";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";
import { ScreeningView } from "./_components/screening-view";

export const metadata = pageMetadata("screening");
export const dynamic = "force-dynamic";

export default framedPage(
  "screening",
  {
    intro:
      "Sanctions and block lists as data: each import is a version with its file's SHA-256, its publish date and " +
      "its addresses per asset, active from the moment it parsed whole, unless it removes addresses the active " +
      "version lists: then a second person confirms it. A file that does not parse changes nothing. Addresses " +
      "match on the address alone, whatever chain they are sent on.",
    times: true,
  },
  (s) => <ScreeningView mayImport={can(s.role, "monitoring.write")} me={s.email} />,
);
