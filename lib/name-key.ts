// The key two spellings of one name share, for matching a Travel Rule name against a sanctions list's party names
// (server/screening/names.ts): compatibility-decomposed (NFKD), marks stripped (é → e), letters NFKD keeps whole
// folded (ß → ss, ø → o, ł → l …), lower case, every run of white space or punctuation one separator, and the
// words sorted, so "PETROV, Ivan" and "Ivan Petrov" are one key. No fuzziness: a letter more or less is another
// name. An empty key (a name of punctuation only) matches nothing.

const FOLD: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  ø: "o",
  Ø: "o",
  ł: "l",
  Ł: "l",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  þ: "th",
  Þ: "th",
  ı: "i",
};
const FOLDED = new RegExp(`[${Object.keys(FOLD).join("")}]`, "gu");

/** The words of a name as the key spells them, in the name's order. */
export function nameWords(name: string): string[] {
  return name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(FOLDED, (c) => FOLD[c]!)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The normalised form of a name: its words (nameWords), sorted, joined by one space. */
export function nameKey(name: string): string {
  return nameWords(name).sort().join(" ");
}
