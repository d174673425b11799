import "server-only";
// Simulator mode: a sub-account key held in Brokerdesk must be a key the simulator knows, as on the platform the
// broker's own key-creation call made it. The simulator's control endpoint registers the given key for the UID
// (`POST /__sim/subaccounts/{uid}/api-keys` with the values pinned) or mints one (without them): the demo's keys.
import { invalidField } from "@/lib/api/errors";
import { env, type PlatformKey } from "@/lib/env";
import type { CredentialStore } from "@/server/platform/credentials";
import { sealerOf } from "@/server/platform/key-seal";
import { platformBaseUrl } from "@/server/platform/runtime";
import type { KeyDeps, SimulatorKeys } from "./subaccount-keys";

const endpoint = (baseUrl: string, uid: string) =>
  new URL(`__sim/subaccounts/${uid}/api-keys`, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);

/** The control endpoints' bearer token when SIM_CONTROL_TOKEN is set (as server/simulator/control-token.ts sends it). */
const controlHeaders = (): Record<string, string> =>
  env.sim.controlToken ? { authorization: `Bearer ${env.sim.controlToken}` } : {};

async function post(baseUrl: string, uid: string, body: Record<string, string>): Promise<Response> {
  return fetch(endpoint(baseUrl, uid), {
    method: "POST",
    headers: { "content-type": "application/json", ...controlHeaders() },
    body: JSON.stringify(body),
  });
}

/** Registers keys on the simulator at `baseUrl`; one it already holds (409) is taken as registered. */
export function simulatorKeys(baseUrl: string): SimulatorKeys {
  return {
    async register(uid, key) {
      const res = await post(baseUrl, uid, {
        apiKey: key.apiKey,
        secretKey: key.apiSecret,
        passphrase: key.passphrase,
      });
      if (res.ok || res.status === 409) return;
      // The simulator's own words (no value of the key is in them): not a sub-account of the broker, deleted…
      const why = ((await res.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${res.status}`;
      throw invalidField("uid", `The simulator made no key for sub-account ${uid}: ${why}`);
    },
  };
}

/** Mints a fresh key for a sub-account on the simulator (the key and secret are the simulator's, shown once). */
export async function mintOnSimulator(baseUrl: string, uid: string, passphrase: string): Promise<PlatformKey> {
  const res = await post(baseUrl, uid, { passphrase });
  if (!res.ok) throw new Error(`the simulator minted no key for sub-account ${uid}: HTTP ${res.status}`);
  const body = (await res.json()) as { apiKey: string; secretKey: string; passphrase: string };
  return { apiKey: body.apiKey, apiSecret: body.secretKey, passphrase: body.passphrase };
}

/** What the routes hand the workflow: the sealer, the runtime's credentials, the simulator in simulator mode. */
export function runtimeKeyDeps(credentials: CredentialStore): KeyDeps {
  const baseUrl = env.mode === "simulator" ? platformBaseUrl() : null;
  return { sealer: sealerOf(env.keySealingSecret), credentials, simulator: baseUrl ? simulatorKeys(baseUrl) : null };
}
