"use client";
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { noticeClass, type NoticeTone } from "./styles";

/**
 * Focuses an answer once, when it appears, after the other effects of the same commit: a dialog that closes
 * as the answer arrives gives the focus back to its opener then, and until it has closed the rest of the page
 * is inert and cannot take the focus.
 */
export function useFocusOnAppear(ref: RefObject<HTMLElement | null>, focus: boolean): void {
  useEffect(() => {
    if (!focus) return;
    const t = setTimeout(() => ref.current?.focus(), 0);
    return () => clearTimeout(t);
  }, [ref, focus]);
}

/**
 * A message in a toned box; an error is an alert (read out at once), anything else a status. `focus`: it takes
 * the focus when it appears, for the answer to an action whose control is gone (a decided row leaves its list),
 * so the keyboard goes on from the answer, not from the top of the page. Key it per answer to focus it again.
 */
export function Notice({ tone, focus = false, children }: { tone: NoticeTone; focus?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useFocusOnAppear(ref, focus);
  return (
    <p
      ref={ref}
      role={tone === "error" ? "alert" : "status"}
      tabIndex={focus ? -1 : undefined}
      className={`${noticeClass(tone)} outline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600`}
    >
      {children}
    </p>
  );
}

/**
 * A panel's answers to its actions: `say` shows a new notice that takes the focus (see `focus` above), even
 * when it says the same as the last; `forget` takes it away (another part of the panel is answering).
 */
export function useNotice() {
  const [said, setSaid] = useState<{ tone: NoticeTone; text: ReactNode; n: number } | null>(null);
  return {
    say: (tone: NoticeTone, text: ReactNode) => setSaid((last) => ({ tone, text, n: (last?.n ?? 0) + 1 })),
    forget: () => setSaid(null),
    notice: said ? (
      <Notice key={said.n} tone={said.tone} focus>
        {said.text}
      </Notice>
    ) : null,
  };
}
