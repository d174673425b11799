import { Badge } from "@/components/ui/badge";
import type { REGISTRY_SOURCES } from "@/lib/api/registry/words";

const STATUS_TONE = { normal: "ok", freeze: "warn", del: "error" } as const;

export function StatusBadge({ status }: { status: string }) {
  const tone = status in STATUS_TONE ? STATUS_TONE[status as keyof typeof STATUS_TONE] : "neutral";
  return <Badge tone={tone}>{status || "—"}</Badge>;
}

/** Where an entry came from, in words a reader of the registry understands: every source the registry has. */
export const SOURCE_LABEL: Readonly<Record<string, string>> = {
  created: "Created here",
  added: "Added by UID",
  "simulator-seed": "Simulator seed",
} satisfies Record<(typeof REGISTRY_SOURCES)[number], string>;
