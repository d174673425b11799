import "server-only";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { env } from "@/lib/env";
import { CONTROL_TOKEN_MIN, envControlToken } from "./control-token";
import { faultRulesSchema } from "./faults";
import { DEMO_KEY_NAMES, type KeyOverrides } from "./keys";
import { startSimulator } from "./index";

// `npm run sim`: the simulator alone, for other clients, benchmarks and multi-instance tests.
// Port, seed, scale, sub-accounts and deposit rate come from SIM_PORT / SIM_SEED / SIM_SCALE /
// SIM_SUBACCOUNTS / SIM_DEPOSIT_RATE / SIM_DEPOSIT_SETTLE_MS (lib/env.js); flags override them.
// Flags are documented in server/simulator/README.md ("Standalone").

const USAGE = `usage: npm run sim -- [--port N] [--host H] [--seed N] [--scale X]
  [--subaccounts N] [--deposit-rate N] [--deposit-settle-ms N] [--deposit-retention-days N]
  [--rate-limits on|relaxed|off] [--clock-skew-ms N] [--path-prefix /sim]
  [--faults '<json rule or array>'] [--faults-file rules.json] [--keys-file keys.json]
  [--control-token T]   (or SIM_CONTROL_TOKEN: /__sim/* then need Authorization: Bearer T)
  [--latency MS] [--jitter MS]   the platform's distance: a round trip's added latency, half each way,
                                 ± jitter per half`;

const platformKey = z.object({
  apiKey: z.string().min(1),
  apiSecret: z.string().min(1),
  passphrase: z.string().min(1),
});
const keysFileSchema = z.object(Object.fromEntries(DEMO_KEY_NAMES.map((n) => [n, platformKey.optional()]))).strict();

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function num(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) fail(`--${name} must be a non-negative number`);
  return n;
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch (e) {
    return fail(`cannot read ${what} ${file}: ${(e as Error).message}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      scale: { type: "string" },
      subaccounts: { type: "string" },
      "deposit-rate": { type: "string" },
      "deposit-settle-ms": { type: "string" },
      "deposit-retention-days": { type: "string" },
      "rate-limits": { type: "string" },
      "clock-skew-ms": { type: "string" },
      "path-prefix": { type: "string" },
      faults: { type: "string" },
      "faults-file": { type: "string" },
      "keys-file": { type: "string" },
      "control-token": { type: "string" },
      latency: { type: "string" },
      jitter: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rateLimits = values["rate-limits"] ?? "on";
  if (rateLimits !== "on" && rateLimits !== "relaxed" && rateLimits !== "off")
    fail("--rate-limits must be on, relaxed or off");

  let keys: KeyOverrides = {};
  if (values["keys-file"]) {
    const parsed = keysFileSchema.safeParse(readJson(values["keys-file"], "keys file"));
    if (!parsed.success) fail(`keys file: ${z.prettifyError(parsed.error)}`);
    keys = parsed.data as KeyOverrides;
  }

  const faultSources = [
    values.faults && { text: values.faults, what: "--faults" },
    values["faults-file"] && { text: readFileSync(values["faults-file"], "utf8"), what: values["faults-file"] },
  ];
  const rules = faultSources.flatMap((src) => {
    if (!src) return [];
    let json: unknown;
    try {
      json = JSON.parse(src.text) as unknown;
    } catch {
      return fail(`${src.what} is not JSON`);
    }
    const parsed = faultRulesSchema.safeParse(json);
    return parsed.success ? parsed.data : fail(`${src.what}: ${z.prettifyError(parsed.error)}`);
  });

  const controlToken = values["control-token"] ?? envControlToken();
  if (controlToken !== undefined && (controlToken.length < CONTROL_TOKEN_MIN || /\s/.test(controlToken))) {
    fail(`--control-token must be at least ${CONTROL_TOKEN_MIN} characters without spaces (e.g. openssl rand -hex 24)`);
  }

  const scale = num(values.scale, "scale", env.sim.scale);
  if (scale <= 0) fail("--scale must be greater than 0");
  const subaccounts = num(values.subaccounts, "subaccounts", env.sim.subaccounts);
  if (!Number.isInteger(subaccounts) || subaccounts < 25 || subaccounts > 500_000)
    fail("--subaccounts must be a whole number from 25 to 500000");
  const retentionDays =
    values["deposit-retention-days"] === undefined
      ? null
      : num(values["deposit-retention-days"], "deposit-retention-days", 0);
  const sim = await startSimulator({
    port: num(values.port, "port", env.sim.port),
    host: values.host ?? "127.0.0.1",
    seed: num(values.seed, "seed", env.sim.seed),
    scale,
    subaccounts,
    depositRate: num(values["deposit-rate"], "deposit-rate", env.sim.depositRate),
    depositSettleMs:
      values["deposit-settle-ms"] === undefined
        ? env.sim.depositSettleMs
        : num(values["deposit-settle-ms"], "deposit-settle-ms", 0),
    depositRetentionDays: retentionDays || null,
    rateLimits,
    clockSkewMs: num(values["clock-skew-ms"], "clock-skew-ms", 30_000),
    pathPrefix: values["path-prefix"],
    keys,
    controlToken,
  });
  // --latency/--jitter: the platform's distance on every operation, as a standing latency rule (half each way).
  const latencyMs = Math.round(num(values.latency, "latency", 0));
  const jitterMs = Math.round(num(values.jitter, "jitter", 0));
  if (latencyMs > 0 || jitterMs > 0)
    rules.push(faultRulesSchema.parse({ path: "*", kind: "latency", latencyMs, jitterMs })[0]!);
  if (rules.length) sim.faults.set(rules);

  const rsaFile = path.join(tmpdir(), `brokerdesk-sim-rsa-${sim.port}.pem`);
  writeFileSync(rsaFile, sim.keys.rsa.apiSecret, { mode: 0o600 });

  const summary = sim.state.populationSummary();
  const lines = [
    `Brokerdesk platform simulator listening on ${sim.baseUrl}`,
    `  seed ${sim.state.seed}, scale ${sim.state.scale}, data generated in ${Math.round(sim.state.generationMs)} ms ` +
      `(${summary.deposits} deposits, ${summary.subaccounts} sub-accounts: ${summary.tiers.heavy} heavy, ` +
      `${summary.tiers.tail} long tail, ${summary.tiers.dormant} dormant generated)`,
    `  live deposits ${sim.state.depositRate > 0 ? `${sim.state.depositRate}/s` : "off"}, ` +
      `pending for ${sim.state.depositSettleMs} ms; E1 retention ` +
      (sim.state.depositRetentionMs === null ? "none" : `${sim.state.depositRetentionMs / 86_400_000} days`),
    `  rate limits ${rateLimits}; faults ${rules.length ? JSON.stringify(sim.faults.list()) : "off"}`,
    `  control: ${sim.baseUrl}/__sim/{health,stats,keys,faults,clock} (JSON bodies, this Host ` +
      `only${controlToken ? ", Authorization: Bearer <SIM_CONTROL_TOKEN>" : ""})`,
    "",
    "Demo keys (public demo values, not secrets):",
    ...Object.entries(sim.keys).map(([name, k]) =>
      k.type === "rsa"
        ? `  ${name.padEnd(10)} uid ${k.uid}  apiKey ${k.apiKey}  passphrase ${k.passphrase}  RSA private ` +
          `key: ${rsaFile}`
        : `  ${name.padEnd(10)} uid ${k.uid}  apiKey ${k.apiKey}  secret ${k.apiSecret}  passphrase ${k.passphrase}`,
    ),
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing the simulator\n`);
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((e: unknown) => {
  process.stderr.write(`simulator failed to start: ${(e as Error).message}\n`);
  process.exit(1);
});
