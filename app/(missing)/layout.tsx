import type { ReactNode } from "react";
import { headers } from "next/headers";
import { REQUEST_PATH_HEADER } from "@/lib/security-headers";
import DashboardLayout from "../(dashboard)/layout";

export const dynamic = "force-dynamic";

/**
 * Paths no page or route answers. A page path gets the dashboard's shell (sign-in first, then the navigation
 * and a way back); an /api/ path stays a plain 404, never a redirect to sign-in: proxy.ts sets the page path
 * header on page requests only.
 */
export default async function MissingLayout({ children }: { children: ReactNode }) {
  if (!(await headers()).get(REQUEST_PATH_HEADER)) return children;
  return <DashboardLayout>{children}</DashboardLayout>;
}
