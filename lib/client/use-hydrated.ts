"use client";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and until React has hydrated it, true after. A button that only works through its
 * click handler is drawn disabled until then: a click that lands first would do nothing at all (seen in the
 * e2e suite: sign-out and the factor step's "Use a recovery code" clicked right after a navigation).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
