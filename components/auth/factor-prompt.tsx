"use client";
// The re-verify prompt: when a call answers 401 mfa_stale (approving a withdrawal, changing a role or a
// password, changing one's factors), callResource asks this for a factor, then sends the call again. Only the
// handler lives in every page; the dialog and the factor forms load when first needed.
import dynamic from "next/dynamic";
import { useCallback, useEffect, useRef, useState } from "react";
import { setStepUpHandler } from "@/lib/api/call";

const FactorPromptDialog = dynamic(() => import("./factor-prompt-dialog").then((m) => m.FactorPromptDialog), {
  ssr: false,
});

export function FactorPrompt() {
  const [message, setMessage] = useState<string | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const finish = useCallback((ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setMessage(null);
  }, []);

  useEffect(() => {
    setStepUpHandler(
      (error) =>
        new Promise<boolean>((resolve) => {
          // One prompt at a time: a second stale call waits for the same answer.
          const earlier = resolver.current;
          resolver.current = (ok) => {
            earlier?.(ok);
            resolve(ok);
          };
          setMessage(error.message);
        }),
    );
    return () => setStepUpHandler(null);
  }, []);

  return message !== null ? <FactorPromptDialog message={message} onDone={finish} /> : null;
}
