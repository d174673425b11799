import "server-only";
// The control endpoints' token (SIM_CONTROL_TOKEN): read by the simulator (embedded or `npm run sim`) and
// sent by Brokerdesk's start-up when it lists a simulator's sub-accounts.
import { env } from "@/lib/env";

/** The shortest token the simulator takes: anything shorter is guessable. */
export const CONTROL_TOKEN_MIN = 16;

/**
 * SIM_CONTROL_TOKEN as lib/env.js hands it over (at least CONTROL_TOKEN_MIN characters, no spaces).
 */
export function envControlToken(): string | undefined {
  return env.sim.controlToken;
}

/** Headers of a control request: the bearer token when one is configured. */
export function controlHeaders(token = envControlToken()): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}
