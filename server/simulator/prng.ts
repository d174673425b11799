import "server-only";

/** mulberry32: a tiny, fast, seeded PRNG. Enough for demo data; never for anything secret. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 32-bit hash of a few integers (murmur3 finaliser per step). Lets procedural data be computed for any
 * time bucket directly, without walking from the start of history.
 */
export function hashInts(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    // Split into two 32-bit halves so large values (seconds, ms) keep all their bits.
    const lo = v >>> 0;
    const hi = Math.floor(v / 4294967296) >>> 0;
    h = mix(h ^ lo);
    h = mix(h ^ hi);
  }
  return h >>> 0;
}

function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a of a string, for seeding per name (symbol, uid). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export type Rng = {
  next: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
};

export function rng(seed: number): Rng {
  const next = mulberry32(seed);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
    chance: (p) => next() < p,
  };
}

/** Poisson sample by inversion; lambda is small here (trades per second). */
export function poisson(lambda: number, u01: () => number): number {
  const l = Math.exp(-lambda);
  let k = 0;
  let p = u01();
  while (p > l && k < 10_000) {
    k++;
    p *= u01();
  }
  return k;
}
