import type { ReactNode } from "react";
import type { PageDef } from "@/lib/pages";
import { TimesSaid } from "@/components/data-table/time";
import { ROLES, can, type Permission, type Role } from "@/lib/rbac";

const WIDTH = { narrow: "max-w-3xl", normal: "max-w-6xl", wide: "max-w-7xl", full: "" } as const;
export type FrameWidth = keyof typeof WIDTH;

/**
 * Every page's outer box, also for the few pages that draw their own heading. Left-aligned, not centred: a
 * centred box of another width put each page's heading and first control somewhere else on a wide screen.
 */
export function frameClass(width: FrameWidth = "normal"): string {
  return `${WIDTH[width]} space-y-4 p-4 sm:p-6`;
}

export type FrameOptions = {
  width?: FrameWidth;
  intro?: ReactNode;
  /** The page shows times: say their zone after the intro. */ times?: boolean;
};

/** A page's frame: its width, its heading (the manifest's title) and what it is for, then the page. */
export function PageFrame({
  page,
  width = "normal",
  intro,
  times = false,
  children,
}: FrameOptions & { page: PageDef; children: ReactNode }) {
  return (
    <div className={frameClass(width)}>
      <div>
        <h1 className="text-2xl font-bold">{page.title}</h1>
        {intro || times ? (
          <p className="mt-1 max-w-3xl text-sm text-slate-700 dark:text-slate-300">
            {intro}
            {intro && times ? " " : null}
            {times ? <TimesSaid /> : null}
          </p>
        ) : null}
      </div>
      {children}
    </div>
  );
}

/** The one answer to a page the role may not open (the refusal is in the audit log). */
export function NotAllowed({ page, permission, role }: { page: PageDef; permission: Permission; role: Role }) {
  const roles = ROLES.filter((r) => can(r, permission)).join(", ");
  return (
    <div className={frameClass()}>
      <h1 className="text-2xl font-bold">Not allowed</h1>
      <p role="alert" className="text-slate-700 dark:text-slate-300">
        403: {page.what} needs the {permission} permission ({roles}); you are signed in as {role}.
      </p>
    </div>
  );
}
