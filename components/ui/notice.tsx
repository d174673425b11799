import type { ReactNode } from "react";
import { noticeClass, type NoticeTone } from "./styles";

/** A message in a toned box; an error is an alert (read out at once), anything else a status. */
export function Notice({ tone, children }: { tone: NoticeTone; children: ReactNode }) {
  return (
    <p role={tone === "error" ? "alert" : "status"} className={noticeClass(tone)}>
      {children}
    </p>
  );
}
