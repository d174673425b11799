import "server-only";
// Keys of the broker's sub-accounts. On the platform the broker main account makes an API key for one of its
// sub-accounts (a broker operation outside E1–E11: the platform mints the key and its secret, shown once, the
// broker picks the passphrase), and a call signed with that key acts as that sub-account: E10 changes the
// sub-account's leverage, its rate budget is the sub-account's, broker operations answer 40029. The simulator
// does the same in two ways: `POST /__sim/subaccounts/{uid}/api-keys` mints one (as the platform does), and
// in simulator mode a key configured as PLATFORM_KEY_SUB<UID>_* (what Brokerdesk is given for such a key, its
// name saying whose it is) is registered for that UID at start, so one configuration serves both.
import { createPublicKey, randomBytes } from "node:crypto";
import { env, type PlatformKey } from "@/lib/env";
import { uidOfKeyName } from "@/lib/platform/key-names";
import { isPemPrivateKey } from "@/lib/platform/protocol";
import type { RegisteredKey } from "./keys";
import type { SimState } from "./state";

/** What a sub-account's key may do: read and trade (E10); never withdraw, as the platform's default for such keys. */
const SUB_KEY_PERMISSIONS = ["read", "trade"] as const;

export class SubaccountKeyError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "SubaccountKeyError";
  }
}

/** The key's registration, once the UID is known to be a live sub-account of the broker. */
export function subaccountKey(state: SimState, subUid: string, creds: PlatformKey): RegisteredKey {
  if (!state.isSubOf(state.mainUid, subUid))
    throw new SubaccountKeyError(404, `${subUid} is not a sub-account of the broker main account ${state.mainUid}`);
  if (state.subaccount(subUid)?.status === "del") {
    throw new SubaccountKeyError(409, `sub-account ${subUid} is deleted: no key can be made for it`);
  }
  return {
    name: "subaccount",
    apiKey: creds.apiKey,
    passphrase: creds.passphrase,
    verify: isPemPrivateKey(creds.apiSecret)
      ? { type: "rsa", publicKey: createPublicKey(creds.apiSecret) }
      : { type: "hmac", secret: creds.apiSecret },
    uid: subUid,
    role: "sub-account",
    broker: false,
    permissions: SUB_KEY_PERMISSIONS,
  };
}

/** A fresh key and secret, as the platform mints them (the passphrase is the caller's). */
export function mintSubaccountCredentials(passphrase: string): PlatformKey {
  return {
    apiKey: `bd_sub_${randomBytes(12).toString("hex")}`,
    apiSecret: randomBytes(32).toString("base64url"),
    passphrase,
  };
}

/** Simulator mode: the configured PLATFORM_KEY_SUB<UID>_* keys, registered for their UIDs. */
export function subaccountKeysFromEnv(state: SimState): RegisteredKey[] {
  if (env.mode !== "simulator") return [];
  const out: RegisteredKey[] = [];
  for (const [name, creds] of Object.entries(env.platform.keys)) {
    const uid = uidOfKeyName(name);
    if (!uid) continue;
    try {
      out.push(subaccountKey(state, uid, creds));
    } catch (e) {
      // A bad configuration stops the start with the key's name (never its values).
      if (e instanceof SubaccountKeyError) throw new Error(`PLATFORM_KEY_${name.toUpperCase()}_*: ${e.message}`);
      throw e;
    }
  }
  return out;
}
