import "server-only";
// Test support for the crash suites: an instance of Brokerdesk's code in a child process (forked under tsx
// with the react-server condition) that is sent its configuration, says "started", then reports its progress
// as messages, so a test can kill it with SIGKILL at a moment it chooses and start another on the same database.
import { fork, type ChildProcess } from "node:child_process";

export type ChildInstance<Progress> = { child: ChildProcess; last: () => Progress | null };

/** Forks `file`, sends it `config` and resolves once it says "started"; a child that fails first rejects. */
export function startChildInstance<Progress>(
  file: string,
  config: unknown,
  startMs: number,
): Promise<ChildInstance<Progress>> {
  const child = fork(file, [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  let last: Progress | null = null;
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2_000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the instance did not start in ${startMs / 1000} s: ${stderr}`)),
      startMs,
    );
    child.on("message", (m) => {
      if (typeof m === "object" && m !== null) last = m as Progress;
      else if (m === "started") {
        clearTimeout(timer);
        resolve({ child, last: () => last });
      } else reject(new Error(`${String(m)} ${stderr}`));
    });
    child.once("exit", (code) => reject(new Error(`the instance exited (${code}) before it started: ${stderr}`)));
    child.send(config as never);
  });
}

/** Sends `signal` and waits for the exit (at once when the child has already gone). */
export const stopChild = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });

/** Waits until `test` holds, polling every 50 ms; past `ms`, fails saying `what` and the last `state()`. */
export async function until(
  what: string,
  ms: number,
  test: () => boolean,
  state: () => unknown = () => null,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s (${JSON.stringify(state())})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
