// Apart from the columns so that the home card shows a status without loading the table (page weight).
const STATUS_TONE = { success: "ok", pending: "warn", fail: "error" } as const;

/** A deposit's status as a badge's tone (the live list, the ledger, the home card). */
export const depositTone = (s: string) => (s in STATUS_TONE ? STATUS_TONE[s as keyof typeof STATUS_TONE] : "neutral");
