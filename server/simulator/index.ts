import "server-only";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { PlatformKey } from "@/lib/env";
import { mintSubaccountCredentials } from "./subaccount-keys";
import type { FaultRule, FaultRuleInput } from "./faults";
import type { DemoKeys } from "./keys";
import type { RateLimitMode } from "./rate-limit";
import { SimulatorCore, type SimulatorOptions } from "./server";
import type { SimState } from "./state";
import type { SimStats } from "./stats";

export { createSimulatorHandler, SimulatorCore, type SimulatorOptions } from "./server";
export type { DemoKey, DemoKeys, DemoKeyName, KeyOverrides } from "./keys";
export type { FaultRule, FaultRuleInput } from "./faults";
export type { RateLimitMode } from "./rate-limit";
export type { SimStats, OperationStats } from "./stats";
export type { SimState } from "./state";

export type StartSimulatorOptions = SimulatorOptions & {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
};

export type Simulator = {
  /** http://host:port plus the path prefix, if any: what a client takes as its base URL. */
  baseUrl: string;
  port: number;
  keys: DemoKeys;
  faults: {
    /** Replaces the rules in force. */
    set: (rules: FaultRuleInput | FaultRuleInput[]) => FaultRule[];
    add: (rule: FaultRuleInput) => FaultRule[];
    clear: () => void;
    list: () => FaultRule[];
  };
  stats: () => SimStats;
  resetStats: () => void;
  setRateLimits: (mode: RateLimitMode) => void;
  /** The platform's clock: `now()` (wall clock + offset) and `advance(ms)` (also `POST /__sim/clock`). */
  clock: { now: () => number; advance: (ms: number) => number; offsetMs: () => number };
  /**
   * Makes an API key for one of the broker's sub-accounts (`POST /__sim/subaccounts/{uid}/api-keys`); minted unless
   * given.
   */
  addSubaccountKey: (subUid: string, creds?: Partial<PlatformKey>) => PlatformKey & { uid: string };
  /** The simulated platform's data, for tests to read and arrange (balances, modes, loans). */
  state: SimState;
  close: () => Promise<void>;
};

/** Starts the simulator on its own HTTP server (loopback by default). */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<Simulator> {
  const core = new SimulatorCore(options);
  // Kept-alive sockets stay open 65 s, as behind a load balancer with a 60 s idle timeout, and Node announces
  // it (Keep-Alive: timeout=65). With Node's default of 5 s, a client that ignores the announcement (Playwright's
  // request context does; Brokerdesk's client honours it) can reuse a socket just as the server closes it.
  const server = createServer({ headersTimeout: 66_000 }, core.handle);
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    baseUrl: `http://${urlHost}:${port}${core.pathPrefix}`,
    port,
    keys: core.keys,
    faults: {
      set: (rules) => core.faults.set(rules),
      add: (rule) => core.faults.add(rule),
      clear: () => core.faults.clear(),
      list: () => core.faults.list(),
    },
    stats: () => core.stats.snapshot(),
    resetStats: () => core.stats.reset(),
    setRateLimits: (mode) => {
      core.limiter.mode = mode;
      core.limiter.reset();
    },
    clock: {
      now: () => core.clock.now(),
      advance: (ms) => {
        const t = core.clock.advance(ms);
        core.state.tick();
        return t;
      },
      offsetMs: () => core.clock.offsetMs,
    },
    addSubaccountKey: (subUid, creds = {}) => {
      const minted = mintSubaccountCredentials(creds.passphrase ?? "bd-demo-passphrase");
      return core.addSubaccountKey(subUid, { ...minted, ...creds });
    },
    state: core.state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
