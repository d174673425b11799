"use client";
// The registry's query key. Mutations POST through lib/client/api (postJson), GETs through fetchJson.

/** Query key head of the registry; invalidating it refreshes the list, the pickers and the detail pages. */
export const REGISTRY_KEY = "subaccounts.registry";
