import { sha256 } from "@noble/hashes/sha2.js";
import { base58check, bech32, bech32m } from "@scure/base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressForm, normaliseAddress } from "./screening-address";

const b58c = base58check(sha256);
const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });

// Valid addresses of each chain, built by the chain's own encoding.
const evm = bytes(20).map((b) => "0x" + Buffer.from(b).toString("hex"));
// Sui and Aptos: 32-byte account addresses in hex.
const hex32 = bytes(32).map((b) => "0x" + Buffer.from(b).toString("hex"));
const btcLegacy = fc.tuple(fc.constantFrom(0x00, 0x05), bytes(20)).map(([v, h]) => b58c.encode(Uint8Array.of(v, ...h)));
const tron = bytes(20).map((h) => b58c.encode(Uint8Array.of(0x41, ...h)));
const segwit = fc
  .tuple(fc.constantFrom("bc", "tb", "ltc"), fc.constantFrom(0, 1), bytes(32))
  .map(([hrp, v, prog]) =>
    v === 0 ? bech32.encode(hrp, [0, ...bech32.toWords(prog)]) : bech32m.encode(hrp, [1, ...bech32m.toWords(prog)]),
  );

/** Upper- or lower-cases each character by the mask (a case variant of the same text). */
const caseVariant = (s: string, mask: boolean[]) =>
  [...s].map((c, i) => (mask[i % mask.length] ? c.toUpperCase() : c.toLowerCase())).join("");

describe("normaliseAddress", () => {
  it("EVM: every case variant of an address is the same address, in lower case", () => {
    fc.assert(
      fc.property(evm, fc.array(fc.boolean(), { minLength: 1, maxLength: 42 }), (a, mask) => {
        const variant = "0x" + caseVariant(a.slice(2), mask);
        expect(addressForm(variant)).toBe("evm");
        expect(normaliseAddress(variant)).toBe(a.toLowerCase());
        expect(normaliseAddress(` ${variant}\t`)).toBe(a.toLowerCase());
      }),
    );
  });

  it("Sui and Aptos (0x and 64 hex digits): every case variant is the same address, in lower case", () => {
    fc.assert(
      fc.property(hex32, fc.array(fc.boolean(), { minLength: 1, maxLength: 66 }), (a, mask) => {
        const variant = "0x" + caseVariant(a.slice(2), mask);
        expect(normaliseAddress(variant)).toBe(a.toLowerCase());
      }),
    );
  });

  it("bech32 and bech32m: the upper-case form is the same address as the lower-case one", () => {
    fc.assert(
      fc.property(segwit, (a) => {
        expect(a).toBe(a.toLowerCase());
        expect(addressForm(a)).toBe("bech32");
        expect(normaliseAddress(a)).toBe(a);
        expect(normaliseAddress(a.toUpperCase())).toBe(a);
      }),
    );
  });

  it("bech32: a mixed-case string is not bech32 and is kept as written", () => {
    fc.assert(
      fc.property(segwit, fc.integer({ min: 4, max: 20 }), (a, i) => {
        const mixed = a.slice(0, i) + a.slice(i).toUpperCase();
        expect(addressForm(mixed)).toBe("as-written");
        expect(normaliseAddress(mixed)).toBe(mixed);
      }),
    );
  });

  it("base58 (BTC legacy, TRON): kept as written, and a case variant is another address", () => {
    fc.assert(
      fc.property(fc.oneof(btcLegacy, tron), (a) => {
        expect(addressForm(a)).toBe("as-written");
        expect(normaliseAddress(a)).toBe(a);
        const swapped = [...a].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
        if (swapped !== a) expect(normaliseAddress(swapped)).not.toBe(normaliseAddress(a));
      }),
    );
    expect(normaliseAddress("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf")).toBe("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf");
  });

  it("a TRON or BTC legacy address never looks like EVM or bech32", () => {
    fc.assert(
      fc.property(fc.oneof(btcLegacy, tron), (a) => {
        expect(addressForm(a)).toBe("as-written");
      }),
    );
  });
});
