import "server-only";
// Addresses the simulator uses for sanctions screening. Constant (not drawn from the seed), so the fixtures in
// server/screening/fixtures/ can list them.

/** A TRON address (base58check) that sends USDT (TRC20) to the sanctioned-source desk; listed in the SDN fixtures. */
export const SANCTIONED_SOURCE = "TGWASS3j87E2Y3D3bLi7G2VErdUYbqpkLz";
