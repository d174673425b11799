// A person's choices kept in this browser (localStorage), as a store React reads with useSyncExternalStore:
// every reader on the page sees a change at once, and a change made in another tab arrives with the storage
// event. Storage may refuse (private mode, quota): reading then finds nothing, and a write that fails calls
// `refused` (before readers are told) so the caller can keep the choice for as long as the page.
export type StoredChoices = {
  subscribe: (onChange: () => void) => () => void;
  read: (key: string) => string | null;
  /** Stores `value` under `key` (or, refused, calls `refused`), then tells every reader. */
  write: (key: string, value: string, refused: () => void) => void;
};

export function storedChoices(): StoredChoices {
  const listeners = new Set<() => void>();
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      window.addEventListener("storage", onChange);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener("storage", onChange);
      };
    },
    read(key) {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    write(key, value, refused) {
      try {
        localStorage.setItem(key, value);
      } catch {
        refused();
      }
      listeners.forEach((l) => l());
    },
  };
}
