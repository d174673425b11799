// `node scripts/side-by-side.mjs "<command>" "<command>" …`: runs shell commands at the same time and fails if any
// fails. Each command's output is held and printed whole when it ends, so two runs never interleave their lines.
// For steps that mostly wait (npm test's two chaos runs: timers, child processes, loopback calls), which one
// after the other only add their waits up.
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
if (!commands.length) {
  console.error('usage: node scripts/side-by-side.mjs "<command>" ["<command>" …]');
  process.exit(2);
}

const runs = commands.map(
  (command) =>
    new Promise((resolve) => {
      const chunks = [];
      const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.on("data", (c) => chunks.push(c));
      child.stderr.on("data", (c) => chunks.push(c));
      child.on("close", (code, signal) => {
        process.stdout.write(`\n$ ${command}\n${Buffer.concat(chunks).toString()}`);
        if (code !== 0) console.error(`failed (${signal ?? `exit ${code}`}): ${command}`);
        resolve(code === 0 ? 0 : 1);
      });
    }),
);
const codes = await Promise.all(runs);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
