// The dashboard's pages over the page gate (server/http/page.ts): the gate says who is visiting and whether
// they may open the page; here that becomes the page frame around the view, or the one "not allowed" page.
import type { ComponentType, ReactElement, ReactNode } from "react";
import { NotAllowed, PageFrame, type FrameOptions } from "@/components/shell/page-frame";
import type { PageDef, PageId } from "@/lib/pages";
import type { StaffSession } from "@/server/auth/session";
import { openPage as openGate } from "@/server/http/page";

export { pageMetadata } from "@/server/http/page";

/** The gate for a page: the visitor's session and the page's entry, and the "not allowed" page to answer instead. */
export async function openPage(
  id: PageId,
): Promise<{ session: StaffSession; page: PageDef; denied: ReactElement | null }> {
  const { session, page, denied } = await openGate(id);
  return { session, page, denied: denied && <NotAllowed page={page} {...denied} /> };
}

/**
 * A page that is its view in the page frame (most of the dashboard): the gate, then the frame. `view` runs per
 * request, after the gate, with the visitor's session.
 */
export function framedPage(id: PageId, frame: FrameOptions, view: (session: StaffSession) => ReactNode) {
  return async function FramedPage() {
    const { session, page, denied } = await openPage(id);
    if (denied) return denied;
    return (
      <PageFrame page={page} {...frame}>
        {view(session)}
      </PageFrame>
    );
  };
}

/**
 * A framed page over a time range: "now" is fixed once per request so server and browser render the same
 * default range.
 */
export function rangedPage(id: PageId, frame: FrameOptions, View: ComponentType<{ initialNow: number }>) {
  return framedPage(id, frame, () => <View initialNow={Date.now()} />);
}
