// The leverage page's query key: E10's catalog id heads it (STYLE rule 4); the form calls the proxy through
// fetchPlatform and reads its history from the audit log.

/** React Query key of the history. */
export const HISTORY_KEY = ["leverage.set", "history"] as const;
export const HISTORY_LIMIT = 50;
