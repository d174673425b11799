// Next.js calls register() once when a server process starts, before it serves a request: the one place
// Brokerdesk starts its embedded simulator and prepares its database (server/startup.ts).
import { env } from "./lib/env.js";

export async function register(): Promise<void> {
  // Only the Node.js server: the start-up needs node modules (the database, the simulator's HTTP server).
  if (env.nextRuntime !== "nodejs") return;
  const { startApp } = await import("#startup");
  await startApp();
}
