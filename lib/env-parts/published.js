// Values this repository publishes (the simulator's demo keys and session secret) and the measure of a
// secret's strength: what lib/env.js refuses in live mode. The environment itself is read in lib/env.js alone.
/** Demo credentials of the embedded simulator's broker main-account key (not secrets: public demo values). */
export const SIMULATOR_DEMO_KEY = Object.freeze({
  apiKey: "bd_demo_broker_main",
  apiSecret: "bd-demo-secret-broker-main",
  passphrase: "bd-demo-passphrase",
});

/** The simulator's other demo keys (server/simulator/keys.ts registers them): public demo values too. */
export const SIMULATOR_OTHER_DEMO_KEYS = Object.freeze({
  readOnly: Object.freeze({
    apiKey: "bd_demo_read_only",
    apiSecret: "bd-demo-secret-read-only",
    passphrase: "bd-demo-passphrase",
  }),
  nonBroker: Object.freeze({
    apiKey: "bd_demo_non_broker",
    apiSecret: "bd-demo-secret-non-broker",
    passphrase: "bd-demo-passphrase",
  }),
  riskUnit: Object.freeze({
    apiKey: "bd_demo_risk_unit",
    apiSecret: "bd-demo-secret-risk-unit",
    passphrase: "bd-demo-passphrase",
  }),
});

const DEMO_NEXTAUTH_SECRET = "brokerdesk-simulator-demo-session-secret-0123456789";

/**
 * Simulator mode without KEY_SEALING_SECRET: the master secret the demo's sub-account keys are sealed under
 * (published, so live mode refuses it and needs its own).
 */
const DEMO_KEY_SEALING_SECRET = "brokerdesk-simulator-demo-key-sealing-secret-9876543210";

/**
 * Every credential value this repository publishes (.env.example, the defaults above, the simulator's demo
 * keys; lib/env.test.ts fails when .env.example holds one that is not here). Live mode refuses them: anyone
 * who can read the repository could forge a session with the demo session secret or sign with a demo key.
 */
export const PUBLISHED_VALUES = Object.freeze([
  DEMO_NEXTAUTH_SECRET,
  DEMO_KEY_SEALING_SECRET,
  "bd-demo-passphrase",
  "bd_demo_rsa",
  ...[SIMULATOR_DEMO_KEY, ...Object.values(SIMULATOR_OTHER_DEMO_KEYS)].flatMap((k) => [k.apiKey, k.apiSecret]),
]);

/**
 * Bits of entropy a secret shows, estimated from its own characters: Shannon entropy per character times
 * an effective length, the number of distinct three-character runs (so a repeated pattern counts once).
 * A guessable secret ("aaaa…", "0123…0123…") scores low; `openssl rand -base64 48` about 320. An estimate,
 * not a proof: it catches the weak, it cannot certify the strong.
 * @param {string} value
 */
export function estimatedEntropyBits(value) {
  const chars = [...value];
  const counts = new Map();
  for (const ch of chars) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const c of counts.values()) perChar -= (c / chars.length) * Math.log2(c / chars.length);
  const runs = new Set();
  for (let i = 0; i + 3 <= chars.length; i++) runs.add(chars.slice(i, i + 3).join(""));
  return Math.round(perChar * Math.min(chars.length, runs.size + 2));
}

/** The least estimate a live session secret must reach (32 random base64 characters give about 150). */
export const MIN_SECRET_ENTROPY_BITS = 128;

const HOW_TO_MAKE_A_SECRET = "make one with `openssl rand -base64 48`";

export { DEMO_KEY_SEALING_SECRET, DEMO_NEXTAUTH_SECRET, HOW_TO_MAKE_A_SECRET };
