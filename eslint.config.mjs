import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts", ".data/**"] },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  { files: ["server/cli/**", "server/simulator/main.ts", "e2e/**", ".ci/**", "**/*.test.ts"], rules: { "no-console": "off" } },
  {
    // Specs take test/expect from the shared fixtures, whose automatic secret check must see every response.
    // (Not the scale-out test: its own config starts its own servers, and it checks their logs itself.)
    files: ["e2e/**/*.spec.ts"],
    ignores: ["e2e/scale/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "@playwright/test", importNames: ["test", "expect"], message: 'Import test and expect from "./support/test" (the secret check of issue 7).' }] },
      ],
    },
  },
];

export default config;
