// Address checks per chain: a real address of each chain passes, the same address with one character
// changed (a typo the checksum catches) or a wrong chain's address fails, and the error names the chain.
import { describe, expect, it } from "vitest";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { isKnownChain } from "@/lib/withdrawal-addresses";
import { addressProblem } from "./address-check";

const VALID: Record<string, string> = {
  BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
  ERC20: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88",
  TRC20: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
  SOL: "So11111111111111111111111111111111111111112",
  DOGE: "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L",
  LTC: "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9",
  FIL: "f1abjxfbp274xpdqcpuaykwkfb43omjotacm2p3za",
  SEI: "sei1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5jwagqa",
  TON: "EQAABw4VHCMqMTg_Rk1UW2JpcHd-hYyTmqGor7a9xMvS2adL",
  SUI: `0x${"ab".repeat(32)}`,
  DOT: "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
  ADA: "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x",
  XRP: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
};

/** One character changed near the end, to another of the same alphabet. */
const typo = (a: string) => {
  const i = a.length - 3;
  const c = a[i]!;
  const swap = /[0-9]/.test(c)
    ? c === "2"
      ? "3"
      : "2"
    : c === c.toLowerCase()
      ? c === "q"
        ? "p"
        : "q"
      : c === "Q"
        ? "P"
        : "Q";
  return a.slice(0, i) + swap + a.slice(i + 1);
};

/** Solana and Sui addresses carry no checksum: only a character outside their alphabet can be caught. */
const NO_CHECKSUM: Record<string, string> = { SOL: "0", SUI: "g" };

describe("addressProblem", () => {
  it.each(Object.entries(VALID))("%s: a real address passes, a one-character typo fails", (chain, address) => {
    expect(addressProblem(chain, address)).toBeNull();
    const bad = NO_CHECKSUM[chain] ? address.slice(0, -3) + NO_CHECKSUM[chain] + address.slice(-2) : typo(address);
    expect(addressProblem(chain, bad)).toMatch(/^address is not a valid .+ address \(chain /);
  });

  it("refuses another chain's address and short nonsense", () => {
    expect(addressProblem("TRC20", "abc")).toBe(
      "address is not a valid Tron address (chain TRC20): check it character by character",
    );
    expect(addressProblem("TRC20", VALID.ERC20!)).not.toBeNull();
    expect(addressProblem("ERC20", VALID.TRC20!)).not.toBeNull();
    expect(addressProblem("BEP20", VALID.ERC20!)).toBeNull();
    expect(addressProblem("erc20", VALID.ERC20!)).toBeNull();
    expect(isKnownChain("Moonchain")).toBe(false);
  });

  it("the request schema names the chain field for an unknown chain; the address is the server's to check", () => {
    const base = { subUid: "1000001", coin: "USDT", dest: "on_chain", amount: "1", reason: "payout" };
    const issues = (v: object) => {
      const r = withdrawalFormSchema.safeParse(v);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(issues({ ...base, address: VALID.TRC20 })).toEqual({});
    expect(issues({ ...base, chain: "ERC20", address: VALID.ERC20 })).toEqual({});
    expect(Object.keys(issues({ ...base, chain: "Moonchain", address: VALID.TRC20 }))).toEqual(["chain"]);
  });
});
