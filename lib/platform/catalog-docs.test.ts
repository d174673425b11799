import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOG_DOC, replaceCatalogSection } from "./catalog-docs";

describe("[catalog][docs]", () => {
  it(`${CATALOG_DOC}'s operation table is the one generated from the catalog (run \`npm run docs\` after a change)`, () => {
    const doc = readFileSync(new URL(`../../${CATALOG_DOC}`, import.meta.url), "utf8");
    expect(replaceCatalogSection(doc)).toBe(doc);
  });

  it("refuses a document without the table's markers rather than writing a table nowhere", () => {
    expect(() => replaceCatalogSection("# Nothing here")).toThrow(/no catalog markers/);
  });
});
