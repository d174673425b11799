import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { storedChoices } from "./stored-choice";

// A browser's localStorage and window, as far as the store uses them (the suite runs in Node).
function fakeBrowser({ refuse = false } = {}) {
  const items = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => {
      if (refuse) throw new Error("SecurityError");
      return items.get(k) ?? null;
    },
    setItem: (k: string, v: string) => {
      if (refuse) throw new Error("QuotaExceededError");
      items.set(k, v);
    },
  });
  const target = new EventTarget();
  vi.stubGlobal("window", target);
  return { items, target };
}

describe("[client][stored-choice]", () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it("a write is read back and tells every reader; another tab's change (storage event) does too; unsubscribed readers hear nothing", () => {
    const { target } = fakeBrowser();
    const store = storedChoices();
    const heard: string[] = [];
    const stop = store.subscribe(() => heard.push(`a:${store.read("k")}`));
    store.subscribe(() => heard.push(`b:${store.read("k")}`));
    store.write("k", "local", () => heard.push("refused"));
    expect(heard).toEqual(["a:local", "b:local"]);
    target.dispatchEvent(new Event("storage"));
    expect(heard.slice(2)).toEqual(["a:local", "b:local"]);
    stop();
    store.write("k", "utc", () => heard.push("refused"));
    expect(heard.slice(4)).toEqual(["b:utc"]);
  });

  it("refused storage: reading finds nothing, and `refused` runs before readers are told, so they read the kept choice", () => {
    fakeBrowser({ refuse: true });
    const store = storedChoices();
    let kept: string | null = null;
    const seen: (string | null)[] = [];
    store.subscribe(() => seen.push(kept ?? store.read("k")));
    expect(store.read("k")).toBeNull();
    store.write("k", "local", () => (kept = "local"));
    expect(seen).toEqual(["local"]);
  });
});
