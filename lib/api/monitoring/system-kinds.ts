// The kinds that are Brokerdesk's own controls (the sanctions screening), in a module without zod so a page can
// tell them apart without loading the rule kinds' schemas (rule-kinds.ts builds SYSTEM_KINDS from it).
// Each name is checked against the catalog's kinds where rule-kinds.ts reads this list (no import back: no circle).
export const SYSTEM_KIND_NAMES = ["sanctioned_address", "sanctioned_name"] as const;

/** A version of one of Brokerdesk's own rules: always on, nobody drafts, retires or snoozes it. */
export const isSystemKind = (kind: string): boolean => (SYSTEM_KIND_NAMES as readonly string[]).includes(kind);
