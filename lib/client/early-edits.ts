// Which controls staff edited before React hydrated the page. Isomorphic: the root layout inlines
// EARLY_EDITS_SCRIPT in <head>, and components/ui/early-change.ts reads what it recorded.

/** The window property that holds the set of edited elements. */
export const EARLY_EDITS_KEY = "__brokerdeskEarlyEdits";

/**
 * Runs before the body is parsed: records the target of every input and change event, which is what a person
 * (or a password manager) editing a control fires, and what the browser restoring a form's values, the DOM
 * normalising a value and a select showing its first option for a value it lacks do not.
 */
export const EARLY_EDITS_SCRIPT =
  `(function(){var s=window[${JSON.stringify(EARLY_EDITS_KEY)}]=new WeakSet();function r(e){s.add(e.target)}` +
  `document.addEventListener("input",r,true);document.addEventListener("change",r,true)})();`;

/** True when `el`, or a control inside it (a radio of a fieldset), was edited since the page loaded. */
export function wasEdited(el: Element): boolean {
  const edits = (window as unknown as Record<string, WeakSet<EventTarget> | undefined>)[EARLY_EDITS_KEY];
  if (!edits) return false;
  return edits.has(el) || [...el.querySelectorAll("input, select, textarea")].some((c) => edits.has(c));
}
