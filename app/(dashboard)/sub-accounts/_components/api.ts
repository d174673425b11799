"use client";
// The registry's query keys, shared by the list, the pickers and the detail pages.
import type { QueryClient } from "@tanstack/react-query";
import { registryRoutes } from "@/lib/api/registry/routes";

/** Query key head of the whole registry (the detail pages' entries sit under it too). */
export const REGISTRY_KEY = registryRoutes.list.id;

/** After a create or an add: the registry page, the pickers' searches and the detail pages read again. */
export function invalidateRegistry(qc: QueryClient): void {
  for (const r of [registryRoutes.list, registryRoutes.browse, registryRoutes.search, registryRoutes.get]) {
    void qc.invalidateQueries({ queryKey: [r.id] });
  }
}
