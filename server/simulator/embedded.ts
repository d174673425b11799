import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/server/log";
import { envControlToken } from "./control-token";
import { startSimulator } from "./index";

/**
 * Starts the simulator inside the app's process (simulator mode) on SIM_PORT, so the CLI and other
 * tools can reach the same one; if that port is taken, on a free port, said in the log.
 */
export async function startEmbeddedSimulator(): Promise<string> {
  const options = {
    seed: env.sim.seed,
    scale: env.sim.scale,
    controlToken: envControlToken(),
    subaccounts: env.sim.subaccounts,
    depositRate: env.sim.depositRate,
    depositSettleMs: env.sim.depositSettleMs,
  };
  try {
    const sim = await startSimulator({ ...options, port: env.sim.port });
    logger.info({ baseUrl: sim.baseUrl }, "embedded simulator listening");
    return sim.baseUrl;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    const sim = await startSimulator({ ...options, port: 0 });
    logger.warn({ baseUrl: sim.baseUrl, wanted: env.sim.port }, "SIM_PORT is taken; embedded simulator on a free port");
    return sim.baseUrl;
  }
}
