import { Badge } from "@/components/ui/badge";

export function ModeBadge({ mode }: { mode: "live" | "simulator" }) {
  return mode === "simulator" ? (
    <Badge tone="warn" label="Platform mode: simulator">
      SIMULATOR
    </Badge>
  ) : (
    <Badge tone="error" label="Platform mode: live">
      LIVE
    </Badge>
  );
}
