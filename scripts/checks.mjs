// `npm run checks`: the type check and the linter side by side (each is single-threaded; on CI's two cores
// this saves the shorter of the two). Each one's output is printed whole when it ends; the step fails when
// either does.
import { spawn } from "node:child_process";

const checks = [
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["lint", "npm", ["run", "--silent", "lint"]],
  ["format", "npm", ["run", "--silent", "format:check"]],
];

const results = await Promise.all(
  checks.map(
    ([name, cmd, args]) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        child.on("close", (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(
            `\n> ${name}: ${code === 0 ? "passed" : `failed (exit ${code})`} in ${seconds} s\n${out}`,
          );
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
