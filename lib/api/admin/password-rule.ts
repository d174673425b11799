// What a staff password must be, as the forms say it and the server checks it; apart from ./users (its routes'
// schemas) so that a form can state the rule without loading zod (page weight). Isomorphic.

export const PASSWORD_MIN_LENGTH = 12;
/**
 * The rule as forms state it before anything is sent; the server also refuses one easy to guess
 * (server/auth/passwords.ts).
 */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters, not easy to guess`;
/** What makes one easy to guess, said where there is room (a few unrelated words are not). */
export const PASSWORD_GUESSABLE = "repeats, runs like 1234 or qwerty, common passwords, or your own name or e-mail";
/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

export function passwordTooLong(password: string): boolean {
  return new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES;
}
