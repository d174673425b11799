import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { replaceCatalogSection } from "./catalog-docs";

describe("[catalog][docs]", () => {
  it("README's operation table is the one generated from the catalog (run `npm run docs` after a change)", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(replaceCatalogSection(readme)).toBe(readme);
  });
});
