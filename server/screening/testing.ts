import "server-only";
// Test support: the fixtures in the repository, and the simulator's sanctioned source they list.
import { readFileSync } from "node:fs";
import path from "node:path";

export const FIXTURES = path.join(import.meta.dirname, "fixtures");
export const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
export { SANCTIONED_SOURCE } from "@/server/simulator/data/sanctioned";
