import "server-only";
// The seeded desks of the monitoring patterns (./patterns.ts), by name and label: a leaf the accounts and the
// generated deposits read too.

/** The pattern desks, by the name their sub-account is known by, and the label staff see. */
export const PATTERN_DESKS = {
  structuring: { name: "desk11", label: "Desk 11 (structuring)" },
  passThrough: { name: "desk13", label: "Desk 13 (pass-through)" },
  dormant: { name: "desk14", label: "Desk 14 (dormant, woke)" },
  sharedSourceA: { name: "desk16", label: "Desk 16 (shared source)" },
  sharedSourceB: { name: "desk17", label: "Desk 17 (shared source)" },
  sharedSourceC: { name: "desk18", label: "Desk 18 (shared source)" },
  largeFirst: { name: "desk19", label: "Desk 19 (large first deposit)" },
  sanctionedSource: { name: "desk23", label: "Desk 23 (sanctioned source)" },
} as const;
export type PatternDesk = keyof typeof PATTERN_DESKS;

/** The label of a seeded desk (`deskNN`): its pattern's, or "Desk NN". */
export function seededDeskLabel(name: string, n: string): string {
  return Object.values(PATTERN_DESKS).find((d) => d.name === name)?.label ?? `Desk ${n}`;
}

/** Desks whose generated deposits go to another desk (the dormant desk is silent until it wakes). */
export const QUIET_DESKS: Readonly<Record<string, string>> = { [PATTERN_DESKS.dormant.name]: "desk07" };
