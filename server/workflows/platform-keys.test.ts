// The keys a role may choose, by name and kind only: a broker the main key alone (named keys default to
// leads and admins), a configured role list widens it, and nothing of a key's secret parts is in the answer.
import { describe, expect, it } from "vitest";
import { platformKeysSchema } from "@/lib/api/platform-keys";
import { CredentialStore } from "@/server/platform/credentials";
import { choosableKeys } from "./platform-keys";

const key = (n: string) => ({ apiKey: `ak-${n}-SECRET`, apiSecret: `sk-${n}-SECRET`, passphrase: `pp-${n}-SECRET` });
const store = new CredentialStore(
  { riskunit: key("r"), main: key("m"), sub1: key("s"), readonly: key("o") },
  { sub1: ["broker", "lead"] },
);

describe("[keys.list] choosable keys", () => {
  it("[keys.list] a broker sees the main key and the keys configured for brokers; a lead every key; main first", () => {
    expect(choosableKeys(store, "broker", undefined).map((k) => k.name)).toEqual(["main", "sub1"]);
    expect(choosableKeys(store, "lead", undefined)).toEqual([
      { name: "main", kind: "broker-main", synced: true },
      { name: "readonly", kind: "read-only", synced: true },
      { name: "riskunit", kind: "risk-unit", synced: true },
      { name: "sub1", kind: "sub-account", synced: true },
    ]);
    expect(choosableKeys(store, "compliance", ["main"]).map((k) => [k.name, k.synced])).toEqual([["main", true]]);
    expect(choosableKeys(store, "admin", ["main"]).map((k) => [k.name, k.synced])).toEqual([
      ["main", true],
      ["readonly", false],
      ["riskunit", false],
    ]);
  });

  it("[keys.list] the answer holds names and kinds only, and the schema refuses anything more", () => {
    const answer = { keys: choosableKeys(store, "admin", undefined) };
    expect(JSON.stringify(answer)).not.toContain("SECRET");
    expect(() =>
      platformKeysSchema.parse({ keys: [{ name: "main", kind: "broker-main", synced: true, apiKey: "x" }] }),
    ).toThrow();
  });
});
