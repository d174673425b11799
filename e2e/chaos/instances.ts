// The chaos run's instances (instance.ts), one child process each: started with their share of the workload,
// killed and started again with what they had left, and heard: every operation they report goes into the
// history. An instance that exits by itself while it had work left is a problem of the run (an outage must
// not end the app), and is started again so that the run goes on.
import { fork, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { childEnv } from "@/lib/env";
import { hashInts } from "@/server/simulator/prng";
import type { ChaosInstanceConfig, HistoryEvent } from "./instance";

export type Instances = {
  history: HistoryEvent[];
  /** Problems: instances that ended by themselves. */
  crashes: string[];
  restarts: number;
  /** Instances with work left, by name. */
  busy(): string[];
  /** SIGKILL, then started again with what it had left. */
  kill(name: string): Promise<void>;
  stopAll(): Promise<void>;
  killAll(): Promise<void>;
};

export async function startInstances(o: {
  count: number;
  ops: number;
  seed: number;
  env: Record<string, string>;
  config: Omit<ChaosInstanceConfig, "name" | "seed" | "ops">;
}): Promise<Instances> {
  mkdirSync("reports", { recursive: true });
  // Every instance's stderr, in reports/chaos-instances.log (reports/ is not committed).
  const log = createWriteStream(path.join("reports", "chaos-instances.log"));
  const history: HistoryEvent[] = [];
  const crashes: string[] = [];
  const children = new Map<string, ChildProcess>();
  const left = new Map<string, number>();
  const ending = new Set<ChildProcess>();
  let generation = 0;
  let restarts = 0;

  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => child.once("exit", () => r()));

  const start = (name: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const child = fork(path.join(process.cwd(), "e2e/chaos/instance.ts"), [], {
        execArgv: ["--conditions=react-server", "--import", "tsx"],
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        env: childEnv(o.env),
      });
      children.set(name, child);
      // What it says on stderr (an uncaught error's stack) is kept, so a crash's problem can name its cause.
      let said = "";
      child.stderr?.on("data", (d: Buffer) => {
        said = (said + d.toString()).slice(-4_000);
        log.write(`[${name}] ${d.toString()}`);
      });
      child.on("message", (m) => {
        if (m === "started") resolve();
        else if (m === "done") {
          left.set(name, 0);
          ending.add(child);
          child.kill("SIGTERM");
        } else if (typeof m === "string") {
          said += `\n${m}`;
          reject(new Error(`${name}: ${m}`));
        } else {
          history.push(m as HistoryEvent);
          left.set(name, Math.max(0, (left.get(name) ?? 0) - 1));
        }
      });
      child.once("exit", (code, signal) => {
        if (children.get(name) !== child) return;
        children.delete(name);
        if (ending.has(child) || (left.get(name) ?? 0) === 0) return;
        const cause =
          said
            .split("\n")
            .find((l) => /Error|failed:/.test(l))
            ?.trim() ?? "(nothing on stderr)";
        crashes.push(
          `${name} ended by itself (${signal ?? `exit code ${code}`}) with ${left.get(name)} operations left: ${cause}`,
        );
        restarts++;
        void start(name).catch((e: unknown) => crashes.push(`${name} did not start again: ${String(e)}`));
      });
      const cfg: ChaosInstanceConfig = {
        ...o.config,
        name,
        seed: hashInts(o.seed, Number(name.slice(1)), generation++),
        ops: left.get(name) ?? o.ops,
      };
      child.send(cfg);
    });

  for (let i = 0; i < o.count; i++) {
    left.set(`i${i}`, o.ops);
    await start(`i${i}`);
  }
  const end = async (signal: NodeJS.Signals) => {
    const all = [...children.values()];
    for (const child of all) {
      ending.add(child);
      child.kill(signal);
    }
    await Promise.all(all.map(exited));
  };
  return {
    history,
    crashes,
    get restarts() {
      return restarts;
    },
    busy: () => [...children.keys()].filter((n) => (left.get(n) ?? 0) > 0).sort(),
    async kill(name) {
      const child = children.get(name);
      if (!child) return;
      ending.add(child);
      child.kill("SIGKILL");
      await exited(child);
      restarts++;
      await start(name);
    },
    stopAll: () => end("SIGTERM"),
    killAll: async () => {
      await end("SIGKILL");
      log.end();
    },
  };
}
