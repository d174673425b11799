// Importing the env module validates the environment once, at build and at start.
import { env } from "./lib/env.js";

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm test` type-checks the whole tree (`tsc --noEmit`) before it builds; only then does the build skip it.
  typescript: { ignoreBuildErrors: env.buildTypesChecked },
  serverExternalPackages: [
    "pino",
    "rate-limiter-flexible",
    "@electric-sql/pglite",
    "pg",
    "bcryptjs",
    "@zxcvbn-ts/core",
    "@zxcvbn-ts/language-common",
    "@zxcvbn-ts/language-en",
  ],
};

export default nextConfig;
