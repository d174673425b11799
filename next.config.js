// Importing the env module validates the environment once, at build and at start.
import "./lib/env.js";

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ["pino", "rate-limiter-flexible", "@electric-sql/pglite", "pg", "bcryptjs"],
};

export default nextConfig;
