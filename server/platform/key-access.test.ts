import { describe, expect, it } from "vitest";
import { CredentialStore } from "./credentials";
import { NAMED_KEY_DEFAULT_ROLES, mayChooseKey, parseKeyRoles } from "./key-access";

const k = { apiKey: "k", apiSecret: "s", passphrase: "p" };

describe("[platform][key-access] who may choose a named key", () => {
  it("[key-access] the main key goes with the permission: every role", () => {
    for (const role of ["compliance", "broker", "lead", "admin"] as const)
      expect(mayChooseKey({}, "main", role)).toBe(true);
  });

  it("[key-access] a named key without configuration is for lead and admin only", () => {
    expect(NAMED_KEY_DEFAULT_ROLES).toEqual(["lead", "admin"]);
    expect(mayChooseKey({}, "riskunit", "lead")).toBe(true);
    expect(mayChooseKey({}, "riskunit", "admin")).toBe(true);
    expect(mayChooseKey({}, "riskunit", "broker")).toBe(false);
    expect(mayChooseKey({}, "riskunit", "compliance")).toBe(false);
  });

  it("[key-access] PLATFORM_KEY_<NAME>_ROLES lists the roles, or none; problems are named by variable", () => {
    const { keyRoles, problems } = parseKeyRoles({
      PLATFORM_KEY_RISKUNIT_ROLES: "lead, Compliance,lead",
      PLATFORM_KEY_SUB1_ROLES: "none",
      PLATFORM_KEY_RISKUNIT_API_KEY: "not a roles variable",
      PLATFORM_KEY_BAD_ROLES: "lead,owner",
      PLATFORM_KEY_EMPTY_ROLES: " , ",
      PLATFORM_KEY_MAIN_ROLES: "lead",
    });
    expect(keyRoles).toEqual({ riskunit: ["lead", "compliance"], sub1: [] });
    expect(problems).toEqual([
      "  PLATFORM_KEY_BAD_ROLES: must be a comma-separated list of compliance, broker, lead, admin, or none (not roles: owner)",
      "  PLATFORM_KEY_EMPTY_ROLES: must be a comma-separated list of compliance, broker, lead, admin, or none",
      "  PLATFORM_KEY_MAIN_ROLES: the main key goes with each operation's permission; name a PLATFORM_KEY_<NAME> key",
    ]);
    expect(mayChooseKey(keyRoles, "riskunit", "compliance")).toBe(true);
    expect(mayChooseKey(keyRoles, "riskunit", "admin")).toBe(false);
    expect(mayChooseKey(keyRoles, "sub1", "admin")).toBe(false);
  });

  it("[key-access] the credential store answers with its configuration", () => {
    const store = new CredentialStore({ main: k, riskunit: k, readonly: k }, { readonly: ["compliance"] });
    expect(store.mayChoose("riskunit", "broker")).toBe(false);
    expect(store.mayChoose("readonly", "compliance")).toBe(true);
    expect(store.mayChoose("readonly", "lead")).toBe(false);
    expect(store.rolesOf("riskunit")).toEqual(["lead", "admin"]);
    expect(store.get("readonly").role).toBe("read-only");
  });
});
