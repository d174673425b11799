import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

const config = [
  ...nextVitals,
  ...nextTs,
  // Layout is Prettier's: the rules that would argue with it are off.
  prettier,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      ".data/**",
      "reports/**",
      "backups/**",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // What the browser may load builds its schemas with zod/mini: classic zod's method chains reach every schema
    // type, so one classic import puts all of zod (about 27 KiB gzipped) on a page (page weight).
    // The server's own (the environment, the OpenAPI description) may keep classic zod.
    files: ["app/**", "components/**", "lib/**"],
    ignores: [
      "app/api/**",
      "lib/env.js",
      "lib/env-parts/**",
      "lib/api/openapi.ts",
      "lib/api/openapi-resource.ts",
      "**/*.test.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "zod", message: 'Build shared schemas with "zod/mini" (page weight).' }] },
      ],
    },
  },
  {
    files: ["server/cli/**", "server/simulator/main.ts", "e2e/**", ".ci/**", "**/*.test.ts"],
    rules: { "no-console": "off" },
  },
  {
    // Specs take test/expect from the shared fixtures, whose automatic secret check must see every response.
    // (Not the scale-out test: its own config starts its own servers, and it checks their logs itself.)
    files: ["e2e/**/*.spec.ts"],
    ignores: ["e2e/scale/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test", "expect"],
              message: 'Import test and expect from "./support/test" (it checks that no secret reached the page).',
            },
          ],
        },
      ],
    },
  },
];

export default config;
