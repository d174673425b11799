// What the platform's error codes say, for both sides of the wire: the client explains a refusal with it,
// the simulator answers with it. Isomorphic.

/**
 * Platform error codes Brokerdesk knows, with the platform's message and what it means for staff.
 * Sources: docs/platform-facts.md §2.2. Codes 40404 and 49001–49004 are the simulator's own documented
 * choices (server/simulator/README.md); their meanings are said to staff, so they do not say so.
 */
export const PLATFORM_ERRORS = {
  "40001": { msg: "ACCESS_KEY cannot be empty", meaning: "The request carried no API key." },
  "40003": { msg: "Signature cannot be empty", meaning: "The request carried no signature." },
  "40005": { msg: "Invalid ACCESS_TIMESTAMP", meaning: "The request timestamp could not be read." },
  "40006": { msg: "Invalid ACCESS_KEY", meaning: "The platform does not know this API key." },
  "40007": { msg: "Invalid Content_Type", meaning: "The request's content type was not JSON." },
  "40008": { msg: "Request timestamp expired", meaning: "The server clock and the platform's differ too much." },
  "40009": { msg: "sign signature error", meaning: "The signature did not match: check the API secret." },
  "40011": { msg: "ACCESS_PASSPHRASE cannot be empty", meaning: "The request carried no passphrase." },
  "40012": { msg: "apikey/password is incorrect", meaning: "The passphrase does not belong to this API key." },
  "40014": { msg: "Incorrect permissions", meaning: "The API key lacks the permission this operation needs." },
  "40017": { msg: "Parameter verification failed", meaning: "A parameter was refused." },
  "40018": { msg: "Invalid IP", meaning: "This server's IP is not on the key's whitelist." },
  "40019": { msg: "Parameter {0} cannot be empty", meaning: "A required parameter is missing." },
  "40020": { msg: "Parameter {0} error", meaning: "A parameter has a value the platform refuses." },
  "40029": { msg: "The account is not a broker", meaning: "Only an ND broker main account may call this operation." },
  "40034": { msg: "Parameter {0} does not exist", meaning: "An identifier was not found." },
  "40037": { msg: "Apikey does not exist", meaning: "The platform does not know this API key." },
  "43012": { msg: "Insufficient balance", meaning: "The sub-account's available balance is below the amount." },
  "40404": { msg: "Not Found", meaning: "The platform has no such path." },
  "49001": { msg: "uid is bound to another risk unit", meaning: "Unbind it from its risk unit first." },
  "49002": { msg: "risk unit already has 50 UIDs", meaning: "A risk unit holds at most 50 UIDs." },
  "49003": { msg: "uid is not in the risk unit", meaning: "Only a UID bound to this risk unit can be unbound." },
  "49004": {
    msg: "uid has a balance and the risk unit has an outstanding loan",
    meaning: "Unbinding needs a zero balance or no outstanding loan.",
  },
  "50000": { msg: "System busy", meaning: "The platform failed internally; try again." },
  "429": { msg: "Too Many Requests", meaning: "The platform's rate limit was exceeded." },
} as const satisfies Record<string, { msg: string; meaning: string }>;

export type KnownPlatformCode = keyof typeof PLATFORM_ERRORS;

export function platformErrorMessage(code: KnownPlatformCode, param?: string): string {
  return PLATFORM_ERRORS[code].msg.replace("{0}", param ?? "");
}

/**
 * The parameter a refusal's message names ("Parameter uid error", "Parameter holdSide cannot be empty": the
 * templates above with {0}), so a form can put the refusal under that field; null when it names none. A word that
 * is no field ("Parameter verification failed") is left for the caller to pass over: it looks among its fields.
 */
export function parameterNamed(msg: string): string | null {
  return /\bParameter\s+(\w+)/.exec(msg)?.[1] ?? null;
}

export function describePlatformCode(code: string): string | undefined {
  return (PLATFORM_ERRORS as Record<string, { meaning: string }>)[code]?.meaning;
}
