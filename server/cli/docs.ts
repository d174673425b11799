import "server-only";
// `npm run docs`: regenerates the platform operation table of docs/how-it-is-built.md from the catalog.
import { readFileSync, writeFileSync } from "node:fs";
import { CATALOG_DOC, replaceCatalogSection } from "@/lib/platform/catalog-docs";

const file = new URL(`../../${CATALOG_DOC}`, import.meta.url);
writeFileSync(file, replaceCatalogSection(readFileSync(file, "utf8")));
console.log(`${CATALOG_DOC}: operation table regenerated`);
