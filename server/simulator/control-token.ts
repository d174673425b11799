import "server-only";
// The control endpoints' token (SIM_CONTROL_TOKEN): read by the simulator (embedded or `npm run sim`) and
// sent by Brokerdesk's start-up when it lists a simulator's sub-accounts.
import { env } from "@/lib/env";

/** The shortest token the simulator takes: anything shorter is guessable. */
export const CONTROL_TOKEN_MIN = 16;

/**
 * SIM_CONTROL_TOKEN as lib/env.js hands it over (env.sim.controlToken, a string of at least
 * CONTROL_TOKEN_MIN characters); until lib/env.js reads it, unset, and only `--control-token` sets one.
 */
export function envControlToken(): string | undefined {
  const v = (env.sim as { controlToken?: unknown }).controlToken;
  return typeof v === "string" && v ? v : undefined;
}

/** Headers of a control request: the bearer token when one is configured. */
export function controlHeaders(token = envControlToken()): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}
