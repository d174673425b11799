import type { ReactNode } from "react";
import { noticeClass, type NoticeTone } from "./styles";

/** A message in a toned box; an error is an alert (read out at once), anything else a status. */
export function Notice({ tone, pad, className = "", children }: { tone: NoticeTone; pad?: "sm" | "md" | "lg"; className?: string; children: ReactNode }) {
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`${noticeClass(tone, pad)} ${className}`}>
      {children}
    </p>
  );
}
