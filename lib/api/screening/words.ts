// The screening area's plain words, without zod (a page may import them before any call).

export const LIST_FORMATS = ["sdn", "csv", "ftm"] as const;
export type ListFormatName = (typeof LIST_FORMATS)[number];

export const LIST_FORMAT_LABELS: Record<ListFormatName, string> = {
  sdn: "OFAC SDN advanced XML",
  csv: "CSV block list (address, chain or asset, reason)",
  ftm: "OpenSanctions FollowTheMoney JSON lines",
};

/** A list's name: lower-case letters, digits and dashes ("ofac-sdn", "own-blocklist"). */
export const LIST_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The largest upload the page accepts (OFAC's SDN advanced XML is about 80 MB). */
export const LIST_UPLOAD_MAX_BYTES = 200 * 1024 * 1024;

/** A list version: active, waiting for a second person (it drops addresses), declined, or superseded by a newer one. */
export const VERSION_STATES = ["active", "waiting", "declined", "superseded"] as const;

export const RESCREEN_STATES = ["queued", "running", "done", "failed"] as const;
