import "server-only";
// `npm run docs`: regenerates the README's operation table from the catalog.
import { readFileSync, writeFileSync } from "node:fs";
import { replaceCatalogSection } from "@/lib/platform/catalog-docs";

const file = new URL("../../README.md", import.meta.url);
writeFileSync(file, replaceCatalogSection(readFileSync(file, "utf8")));
console.log("README.md: operation table regenerated");
