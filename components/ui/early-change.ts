"use client";
import { useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { wasEdited } from "@/lib/client/early-edits";

const domValue = (el: Element) => (el as HTMLInputElement | HTMLSelectElement).value;

/**
 * Keeps a change staff made before React hydrated the control. The server's HTML can be used at once; a choice
 * made in that gap (an option, a radio, typed or autofilled text) stays in the DOM when React hydrates, but no
 * onChange fires for it (React's stable and canary builds, which Next bundles, do not replay it). The control
 * would then show a value the page is not using: a filter shown but not applied, a theme shown checked on a
 * light page, a password the sign-in does not send. Once, at mount, when the control was edited (recorded by
 * the layout's EARLY_EDITS_SCRIPT, lib/client/early-edits.ts) and its DOM value differs from the one rendered,
 * this hands the DOM's value to `adopt` (the control's own change handler).
 *
 * Only an edit counts: a value the browser restored, one the DOM normalised, or a select showing its first
 * option for a value it does not offer is left alone. A mount after hydration finds the DOM as rendered.
 * `read` reads the value from the element the ref is on: a select's or input's value unless said (e.g. the
 * checked radio of a fieldset).
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
    const el = ref.current;
    if (!el || !wasEdited(el)) return;
    const now = get(el);
    if (now !== undefined && now !== was) take(now);
  }, []);
  return ref;
}

/**
 * A text field's own state (a draft, a sign-in field) with useEarlyChange wired to it: `useState` plus the ref
 * to put on the input, so text typed or autofilled before hydration is the state.
 */
export function useEarlyState(
  initial: string,
): [string, Dispatch<SetStateAction<string>>, RefObject<HTMLInputElement | null>] {
  const [value, setValue] = useState(initial);
  const ref = useEarlyChange<HTMLInputElement>(value, setValue);
  return [value, setValue, ref];
}

/**
 * What an early-state field holds when its form is submitted: the element's own value. Text typed just before
 * hydration is in the DOM before the state catches up (the adopting effect's render may not have come yet when
 * the submit does); after that the two are the same.
 */
export const fieldText = (draft: string, ref: RefObject<HTMLInputElement | null>) => ref.current?.value ?? draft;
