"use client";
// The registry's query key (the list resource's id), shared by the list, the pickers and the detail pages.
import { subaccountResources } from "@/lib/api/sub-accounts";

/** Query key head of the registry; invalidating it refreshes the list, the pickers and the detail pages. */
export const REGISTRY_KEY = subaccountResources.list.id;
