import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { THEME_INIT_SCRIPT } from "@/components/theme/theme";
import { EARLY_EDITS_SCRIPT } from "@/lib/client/early-edits";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Brokerdesk", template: "%s · Brokerdesk" },
  description: "Back office for an ND-broker main account",
  // public/: the favicon, an SVG icon, the home-screen icon and the manifest for pinning the app.
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "32x32" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: { url: "/apple-touch-icon.png", sizes: "180x180" },
  },
  manifest: "/manifest.webmanifest",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts sets x-nonce per request; reading headers also keeps every page dynamically rendered,
  // which the nonce needs (a prerendered page would carry a stale one, and the CSP would block it).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // suppressHydrationWarning: THEME_INIT_SCRIPT sets <html>'s class and color-scheme before React hydrates.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Inline and first, so the stored theme applies before the first paint (no light flash); the nonce lets it
           past the CSP. */}
        {/* Then the recorder of controls edited before React hydrates them (components/ui/early-change.ts). */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT + EARLY_EDITS_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
