import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameKey, nameWords } from "./name-key";

// Words of letters only (Latin with and without accents, Cyrillic, Greek), as a list's party names are written.
const letter = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzéèêëáàâäãåçñóòôöõúùûüíìîïýÿčšžřěůőűąęłśźżğıøßæ");
const cyrillic = fc.constantFrom(..."абвгдежзийклмнопрстуфхцчшщыэюя");
const word = fc.oneof(
  fc.array(letter, { minLength: 1, maxLength: 12 }).map((cs) => cs.join("")),
  fc.array(cyrillic, { minLength: 1, maxLength: 12 }).map((cs) => cs.join("")),
);
const words = fc.array(word, { minLength: 1, maxLength: 5 });
const separator = fc.constantFrom(" ", "  ", "\t", ", ", " - ", ".", "\u00a0", " / ", "'");

/** The words joined by the separators in turn, with white space around. */
const spelled = (ws: string[], seps: string[]) =>
  ` ${ws.map((w, i) => (i ? seps[i % seps.length] : "") + w).join("")} `;

const caseVariant = (s: string, mask: boolean[]) =>
  [...s].map((c, i) => (mask[i % mask.length] ? c.toUpperCase() : c.toLowerCase())).join("");

const ACCENTS = /[\u0300-\u036f]/;

describe("nameKey", () => {
  it("ignores the order of the words, the separators between them and the white space around", () => {
    fc.assert(
      fc.property(words, fc.array(separator, { minLength: 1, maxLength: 4 }), fc.nat(), (ws, seps, shift) => {
        const rotated = [...ws.slice(shift % ws.length), ...ws.slice(0, shift % ws.length)];
        expect(nameKey(spelled(rotated, seps))).toBe(nameKey(ws.join(" ")));
        expect(nameKey(spelled([...ws].reverse(), seps))).toBe(nameKey(ws.join(" ")));
      }),
    );
  });

  it("ignores case", () => {
    fc.assert(
      fc.property(words, fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), (ws, mask) => {
        const name = ws.join(" ");
        expect(nameKey(caseVariant(name, mask))).toBe(nameKey(name));
        expect(nameKey(name.toUpperCase())).toBe(nameKey(name));
      }),
    );
  });

  it("ignores accents, composed or decomposed: the key of a name is that of its unaccented spelling", () => {
    fc.assert(
      fc.property(words, (ws) => {
        const name = ws.join(" ");
        const bare = name.normalize("NFD").replace(/\p{M}/gu, "");
        expect(nameKey(name.normalize("NFC"))).toBe(nameKey(bare));
        expect(nameKey(name.normalize("NFD"))).toBe(nameKey(bare));
        expect(ACCENTS.test(nameKey(name))).toBe(false);
      }),
    );
  });

  it("is a fixed point: the key of a key is itself, and its words are sorted and lower case", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (s) => {
        const k = nameKey(s);
        expect(nameKey(k)).toBe(k);
        expect(k).toBe(k.toLowerCase());
        expect(k.split(" ").filter(Boolean)).toEqual([...nameWords(s)].sort());
        expect(k).not.toMatch(/^\s|\s$|\s\s/);
      }),
    );
  });

  it("keeps a different word a different name: no fuzziness", () => {
    fc.assert(
      fc.property(words, word, (ws, other) => {
        fc.pre(!ws.map((w) => nameKey(w)).includes(nameKey(other)));
        expect(nameKey([...ws, other].join(" "))).not.toBe(nameKey(ws.join(" ")));
      }),
    );
  });

  it("folds what NFKD keeps whole, and compatibility forms", () => {
    expect(nameKey("Straße Łukasz Ørsted")).toBe(nameKey("strasse lukasz orsted"));
    expect(nameKey("ＩＶＡＮ ＰＥＴＲＯＶ")).toBe("ivan petrov");
    expect(nameKey("PETROV, Ivan")).toBe("ivan petrov");
    expect(nameKey("José  Martínez-García")).toBe("garcia jose martinez");
    expect(nameKey(" ,.- ")).toBe("");
  });
});
