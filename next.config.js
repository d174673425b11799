// Importing the env module validates the environment once, at build and at start.
import { env } from "./lib/env.js";

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ["pino", "rate-limiter-flexible"],
  env: { NEXT_PUBLIC_PLATFORM_MODE: env.mode },
};

export default nextConfig;
