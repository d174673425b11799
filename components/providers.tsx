"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useState, type ReactNode } from "react";
import { config as zodConfig } from "zod/v4/core";

// Zod probes `new Function("")` to decide whether to compile parsers; the CSP (no 'unsafe-eval')
// refuses it and reports a violation on every page. Jitless parsing is the same, minus the probe.
// From zod's core (the global config every zod schema reads): the full zod API stays out of pages that
// do not build schemas, /login among them (page weight).
zodConfig({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 15_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  // nuqs keeps list pages' filters, range and cursor in the URL (STYLE rule 10).
  return (
    <NuqsAdapter>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </NuqsAdapter>
  );
}
