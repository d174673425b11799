import "server-only";
// POST /__sim/listed-destinations: a destination address the e2e suite can put in a list (a CSV block list line is
// in the answer) and then ask a withdrawal to; GET lists what was handed out, with the seeded sanctioned source
// (./data/sanctioned.ts). The platform screens nothing: "listed" is Brokerdesk's business. Each address is new
// (drawn from the seed and a counter), valid for its chain (checksums included), and recorded per simulator.
import { sha256 } from "@noble/hashes/sha2.js";
import { base58check, bech32 } from "@scure/base";
import { z } from "zod";
import { SANCTIONED_SOURCE } from "./data/sanctioned";
import type { SimState } from "./state";

export const LISTED_CHAINS = ["TRC20", "ERC20", "BTC"] as const;

export const listedDestinationSchema = z.object({
  chain: z.enum(LISTED_CHAINS).default("TRC20"),
  reason: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\r\n",]+$/, "reason: one line, no comma or double quote")
    .default("e2e listed destination"),
});

export type ListedDestination = { address: string; chain: (typeof LISTED_CHAINS)[number]; reason: string; csv: string };

const handedOut = new WeakMap<SimState, ListedDestination[]>();

function addressFor(seed: number, n: number, chain: ListedDestination["chain"]): string {
  const h = sha256(new TextEncoder().encode(`brokerdesk-sim:${seed}:listed:${n}`)).subarray(0, 20);
  if (chain === "TRC20") return base58check(sha256).encode(Uint8Array.of(0x41, ...h));
  if (chain === "ERC20") return `0x${Buffer.from(h).toString("hex")}`;
  return bech32.encode("bc", [0, ...bech32.toWords(h)]);
}

/** A new listed destination, recorded; its CSV line (with the header) imports as the broker's own block list. */
export function listDestination(state: SimState, input: z.infer<typeof listedDestinationSchema>): ListedDestination {
  const list = handedOut.get(state) ?? [];
  handedOut.set(state, list);
  const address = addressFor(state.seed, list.length + 1, input.chain);
  const d = {
    address,
    chain: input.chain,
    reason: input.reason,
    csv: `address,chain,reason\n${address},${input.chain},${input.reason}\n`,
  };
  list.push(d);
  return d;
}

export function listedAddresses(state: SimState): { sources: string[]; destinations: ListedDestination[] } {
  return { sources: [SANCTIONED_SOURCE], destinations: [...(handedOut.get(state) ?? [])] };
}
