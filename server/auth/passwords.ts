import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { env } from "@/lib/env";
import { invalidFields } from "@/lib/api/errors";

/**
 * bcrypt work factor of new hashes: 12 (~0.3 s per hash on this class of machine, slow enough to make guessing
 * expensive) unless PASSWORD_HASH_COST says; lib/env.js allows less only in simulator mode, for the test suites,
 * which sign in hundreds of times (each cost-12 comparison is a third of a second of CPU in pure JavaScript).
 */
export const BCRYPT_COST: number = env.passwordHashCost;

// The length rules are the API's (lib/api/admin/users.ts), so the admin page's form refuses what the server would.
export { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, passwordTooLong } from "@/lib/api/admin/users";

/**
 * zxcvbn's score (0–4) a chosen password must reach: 3 is "safely unguessable" against an online attack, and more.
 */
export const PASSWORD_MIN_SCORE = 3;

type Zxcvbn = (password: string, userInputs: string[]) => { score: number; feedback: { warning: string | null } };
let estimator: Promise<Zxcvbn> | undefined;

/** Loaded at the first password chosen (its dictionaries are some megabytes), once per process. */
function loadEstimator(): Promise<Zxcvbn> {
  estimator ??= (async () => {
    const [{ zxcvbn, zxcvbnOptions }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    // Its words for a password made of `about` speak of "page related data": said of a person here.
    const warnings = { ...en.translations.warnings, userInputs: "Made from the holder's own e-mail or name." };
    zxcvbnOptions.setOptions({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      translations: { ...en.translations, warnings },
    });
    return zxcvbn;
  })().catch((e: unknown) => {
    // A failed load is tried again at the next password chosen, not kept until a restart.
    estimator = undefined;
    throw e;
  });
  return estimator;
}

/**
 * Why a password a person chose is too easy to guess, or null. The length rules (lib/api/admin/users.ts) come first;
 * this refuses what meets them and is still guessed early: "aaaaaaaaaaaa", "123456789012", "Password1234",
 * a keyboard row, or the holder's own e-mail or name (`about`). NIST SP 800-63B asks for this check rather
 * than rules on character classes. Never logged: the answer names the pattern, not the password.
 */
export async function tooEasyToGuess(
  password: string,
  about: readonly (string | null | undefined)[] = [],
): Promise<string | null> {
  const zxcvbn = await loadEstimator();
  // Each of them whole, an e-mail's local part whole ("margaret.hopkins"), and each word of them.
  const inputs = about
    .flatMap((a) => (a ? [a, a.split("@")[0] ?? a, ...a.split(/[@.\s_-]+/)] : []))
    .filter((a) => a.length >= 3);
  const { score, feedback } = zxcvbn(password, inputs);
  if (score >= PASSWORD_MIN_SCORE) return null;
  return `Password is too easy to guess${
    feedback.warning
      ? ` (${feedback.warning
          .replace(/\.$/, "")
          .toLowerCase()
          .replace(/^this is /, "")})`
      : ""
  }: a few unrelated words make a strong one`;
}

/** A chosen password that meets the length rules but is guessed early is refused on its field (a 422). */
export async function refuseGuessable(
  field: string,
  password: string,
  about: readonly (string | null)[] = [],
): Promise<void> {
  const why = await tooEasyToGuess(password, about);
  if (why) throw invalidFields({ [field]: [why] });
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    // A malformed stored hash is a failed sign-in, not a crash of the sign-in endpoint.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Runs one full bcrypt comparison against a throw-away hash and returns false, so a sign-in with an
 * unknown e-mail (or an SSO-only account) takes as long as one with a wrong password.
 */
export async function dummyVerify(password: string): Promise<false> {
  dummyHash ??= bcrypt.hash(randomBytes(18).toString("base64"), BCRYPT_COST);
  await verifyPassword(password, await dummyHash);
  return false;
}

/** A strong random password for the CLI (24 characters of base64url: 144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
