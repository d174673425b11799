"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { usePathname } from "next/navigation";
// Types only from ./nav: its value side (the page manifest, lib/pages.ts) stays on the server, which
// hands the sidebar its sections ready made (page weight).
import type { NavSection } from "./nav";

// A lead's count loads after the page: it would bring the withdrawal routes' schemas into every page's
// first JavaScript (the 200 KiB page budget).
const WaitingApprovals = dynamic(() => import("./waiting-approvals").then((m) => m.WaitingApprovals), { ssr: false });

const linkBase = "flex items-center rounded-md border-l-4 px-2 py-1.5 text-sm transition-colors";
const linkIdle =
  "border-transparent text-slate-700 hover:bg-slate-200/70 hover:text-slate-950 dark:text-slate-300 " +
  "dark:hover:bg-slate-800 dark:hover:text-white";
// Not colour alone: the current entry also has a bar and a heavier weight.
const linkCurrent =
  "border-blue-700 bg-blue-100 font-semibold text-blue-900 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-100";

const under = (pathname: string, href: string) => href !== "/" && pathname.startsWith(`${href}/`);

/**
 * "page" on the entry's own path; "true" below it (a sub-account's page under Sub-accounts), unless another entry
 * is nearer (/alerts/rules is Rules', not Alerts'; /policy/leverage the leverage policy's, not the money-out one's).
 */
function currentState(pathname: string, href: string, hrefs: readonly string[]): "page" | "true" | undefined {
  if (pathname === href) return "page";
  if (!under(pathname, href)) return undefined;
  const nearer = hrefs.some((h) => h.length > href.length && (pathname === h || under(pathname, h)));
  return nearer ? undefined : "true";
}

/**
 * The role's pages, grouped. `sections` is already filtered by permission on the server (components/shell/nav.ts);
 * this part only knows which page is open.
 */
export function Sidebar({ sections, onNavigate }: { sections: NavSection[]; onNavigate?: () => void }) {
  const pathname = usePathname();
  const hrefs = sections.flatMap((s) => s.items.map((i) => i.href));
  return (
    <nav aria-label="Main" className="space-y-5 p-3">
      {sections.map((section) => {
        const headingId = `nav-group-${section.group.toLowerCase()}`;
        return (
          <div key={section.group}>
            <p
              id={headingId}
              className="px-3 pb-1 text-xs font-semibold tracking-wider text-slate-600 uppercase dark:text-slate-400"
            >
              {section.group}
            </p>
            <ul aria-labelledby={headingId} className="space-y-0.5">
              {section.items.map((item) => {
                const current = currentState(pathname, item.href, hrefs);
                return (
                  <li key={item.href}>
                    <Link
                      href={item.href}
                      aria-current={current}
                      onClick={onNavigate}
                      className={`${linkBase} ${current ? linkCurrent : linkIdle}`}
                    >
                      {item.label}
                      {item.badge === "waitingApprovals" ? <WaitingApprovals /> : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
