"use client";
import { useEffect, useRef, type RefObject } from "react";

const domValue = (el: Element) => (el as HTMLInputElement | HTMLSelectElement).value;

/**
 * Keeps a change staff made before React hydrated the control. The server's HTML can be used at once; a choice
 * made in that gap (an option, a radio, typed text) stays in the DOM when React hydrates (React 19 keeps it),
 * but no onChange fires for it. The control would then show a value the page is not using: a filter shown but
 * not applied, a theme shown checked on a light page. Once, at mount, this compares the control's DOM value
 * with the value rendered and, when they differ, hands the DOM's to `adopt` (the control's own change handler).
 * React's experimental channel replays such changes itself; Next runs the stable one.
 *
 * `read` reads the value from the element the ref is on (a select's or input's value unless said, e.g. the
 * checked radio of a fieldset). A mount after hydration (a client navigation) finds the DOM as rendered.
 */
export function useEarlyChange<E extends Element>(
  rendered: string,
  adopt: (value: string) => void,
  read: (el: E) => string | undefined = domValue,
): RefObject<E | null> {
  const ref = useRef<E>(null);
  const first = useRef({ rendered, adopt, read });
  useEffect(() => {
    // The values of the render React hydrated: later renders speak through onChange.
    const { rendered: was, adopt: take, read: get } = first.current;
    const now = ref.current ? get(ref.current) : undefined;
    if (now !== undefined && now !== was) take(now);
  }, []);
  return ref;
}
