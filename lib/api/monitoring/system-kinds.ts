// The kinds that are Brokerdesk's own controls (the sanctions screening), in a module without zod so a page can
// tell them apart without loading the rule kinds' schemas (rule-kinds.ts builds SYSTEM_KINDS from it).
import type { RuleKind } from "./rule-kinds";

export const SYSTEM_KIND_NAMES = ["sanctioned_address", "sanctioned_name"] as const satisfies readonly RuleKind[];

/** A version of one of Brokerdesk's own rules: always on, nobody drafts, retires or snoozes it. */
export const isSystemKind = (kind: string): boolean => (SYSTEM_KIND_NAMES as readonly string[]).includes(kind);
