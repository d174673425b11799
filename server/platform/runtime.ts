import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/server/log";
import { PlatformClient } from "./client";
import { CredentialStore } from "./credentials";

/**
 * The process-wide platform client. In simulator mode (no PLATFORM_BASE_URL) the embedded simulator
 * is started in this process on first use and the client points at it. Kept on globalThis so that
 * every route bundle and hot reload shares one client, one rate budget and one simulator.
 */
type Runtime = { client: PlatformClient; mode: "live" | "simulator"; baseUrl: string };
const g = globalThis as typeof globalThis & { __brokerdeskPlatform?: Promise<Runtime> };

export function getPlatform(): Promise<Runtime> {
  g.__brokerdeskPlatform ??= createRuntime().catch((e: unknown) => {
    g.__brokerdeskPlatform = undefined;
    throw e;
  });
  return g.__brokerdeskPlatform;
}

async function createRuntime(): Promise<Runtime> {
  let baseUrl = env.platform.baseUrl;
  if (!baseUrl) {
    const { startEmbeddedSimulator } = await import("@/server/simulator/embedded");
    baseUrl = await startEmbeddedSimulator();
  }
  const client = new PlatformClient({
    baseUrl,
    credentials: new CredentialStore(env.platform.keys),
    locale: env.platform.locale,
    timeoutMs: env.platform.timeoutMs,
    logger: logger.child({ component: "platform" }),
  });
  logger.info({ mode: env.mode, baseUrl }, "platform client ready");
  return { client, mode: env.mode, baseUrl };
}
