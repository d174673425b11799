// Light, dark or the system's choice, kept in localStorage and applied as the `dark` class on <html>
// (globals.css: @custom-variant dark). Isomorphic: the root layout inlines THEME_INIT_SCRIPT, the
// toggle (a client component) uses the rest.

export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const THEME_STORAGE_KEY = "brokerdesk-theme";
/** Dispatched on window when this tab changes the choice ("storage" only fires in other tabs). */
export const THEME_CHANGE_EVENT = "brokerdesk-theme-change";
const DARK_QUERY = "(prefers-color-scheme: dark)";

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}

/** The stored choice; "system" when none, or when storage is unavailable (private modes can throw). */
export function readThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(stored) ? stored : "system";
  } catch {
    return "system";
  }
}

export function applyTheme(choice: ThemeChoice): void {
  const dark = choice === "dark" || (choice === "system" && window.matchMedia(DARK_QUERY).matches);
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  // Native controls and scrollbars follow the page's theme, not the system's.
  root.style.colorScheme = dark ? "dark" : "light";
}

export function storeThemeChoice(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused: the choice still holds for this page view.
  }
  applyTheme(choice);
  window.dispatchEvent(new Event(THEME_CHANGE_EVENT));
}

export function watchSystemTheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Runs in <head> before the body is parsed, so a dark page never flashes light. It repeats
 * readThemeChoice + applyTheme in plain ES5 because it cannot import; keep the two in step.
 */
export const THEME_INIT_SCRIPT =
  `(function(){try{var c=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});` +
  `var d=c==="dark"||(c!=="light"&&window.matchMedia(${JSON.stringify(DARK_QUERY)}).matches);` +
  `var r=document.documentElement;if(d){r.classList.add("dark")}else{r.classList.remove("dark")}` +
  `r.style.colorScheme=d?"dark":"light"}catch(e){}})();`;
