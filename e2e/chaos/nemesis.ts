// The chaos run's nemesis: from the seed, what it does and when, until the instances have done their work.
// Its first actions go once through every kind in an order the seed shuffles, so that even a short run has
// each of them; after that each is drawn at random. The platform's clock only moves forward; each move is
// kept, so the checker can tell when (on the wall clock) the platform saw what it stamped with its own.
import type { Simulator, FaultRuleInput } from "@/server/simulator";
import type { Instances } from "./instances";
import type { RedisControl, TcpProxy } from "./outages";

const FAULTS: Record<"e5" | "e1", FaultRuleInput[]> = {
  e5: [
    { path: "withdrawals.submit", kind: "reset", count: 2 },
    { path: "withdrawals.submit", kind: "status", status: 502, count: 2 },
    { path: "withdrawals.submit", kind: "latency", latencyMs: 2_500, count: 1 },
    { path: "withdrawals.submit", kind: "rate-limit", count: 3 },
  ],
  e1: [
    { path: "deposits.list", kind: "reset", count: 3 },
    { path: "deposits.list", kind: "status", status: 500, count: 3 },
    { path: "deposits.list", kind: "status", status: 503, count: 3 },
    { path: "deposits.list", kind: "latency", latencyMs: 2_000, count: 3 },
    // A storm: every request refused for a while (by count), as a gateway in trouble does.
    { path: "deposits.list", kind: "rate-limit", count: 15 },
  ],
};
const KINDS = ["kill", "e5", "e1", "redis", "database", "clock"] as const;
type Kind = (typeof KINDS)[number];
const WEIGHTS: Record<Kind, number> = { kill: 0.3, e5: 0.2, e1: 0.15, redis: 0.1, database: 0.1, clock: 0.15 };

export type NemesisReport = {
  actions: string[];
  counts: Record<string, number>;
  wallOf: (simMs: number) => number;
};

export async function runNemesis(o: {
  random: () => number;
  sim: Simulator;
  proxy: TcpProxy;
  redis: RedisControl;
  instances: Instances;
}): Promise<NemesisReport> {
  const { random, sim } = o;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const actions: string[] = [];
  const counts = { kills: 0, e5Faults: 0, e1Faults: 0, redisRestarts: 0, databaseOutages: 0, clockMoves: 0 };
  const moves: { wall: number; offset: number }[] = [{ wall: -Infinity, offset: sim.clock.offsetMs() }];
  const first = [...KINDS].sort(() => random() - 0.5);
  const draw = (): Kind => {
    const next = first.shift();
    if (next) return next;
    let r = random();
    for (const k of KINDS) if ((r -= WEIGHTS[k]) < 0) return k;
    return "kill";
  };
  // An outage or a restart takes seconds (an instance starting again under load, most): it runs on while the
  // nemesis goes on to its next action, one of each kind at a time, so even a short run sees every kind.
  const under = new Map<string, Promise<void>>();
  const meanwhile = (key: string, work: Promise<void>) =>
    under.set(
      key,
      work.finally(() => under.delete(key)),
    );
  const busy = () => o.instances.busy().filter((n) => !under.has(`kill ${n}`));
  while (busy().length || under.size) {
    if (!busy().length) {
      await Promise.race(under.values());
      continue;
    }
    // Quickly through the first round (a short run's workload lasts some ten seconds), then at a calmer pace.
    await sleep(first.length ? 150 + Math.floor(random() * 450) : 700 + Math.floor(random() * 1_300));
    const running = busy();
    if (!running.length) continue;
    const kind = draw();
    // Each action is said with its wall-clock time, to set beside what the checker finds.
    const at = new Date().toISOString().slice(11, 23);
    if (kind === "kill") {
      const victim = running[Math.floor(random() * running.length)]!;
      // One instance down at a time: a kill waits for the last one's instance to be back.
      await Promise.all([...under].filter(([k]) => k.startsWith("kill ")).map(([, p]) => p));
      meanwhile(`kill ${victim}`, o.instances.kill(victim));
      counts.kills++;
      actions.push(`${at} kill ${victim}`);
    } else if (kind === "e5" || kind === "e1") {
      const fault = FAULTS[kind][Math.floor(random() * FAULTS[kind].length)]!;
      sim.faults.add(fault);
      counts[kind === "e5" ? "e5Faults" : "e1Faults"]++;
      actions.push(`${at} ${kind.toUpperCase()} ${fault.kind}${fault.status ? ` ${fault.status}` : ""}`);
    } else if (kind === "redis") {
      const downMs = 200 + Math.floor(random() * 1_500);
      await under.get("redis");
      meanwhile("redis", o.redis.restart(downMs));
      counts.redisRestarts++;
      actions.push(`${at} redis down ${downMs} ms`);
    } else if (kind === "database") {
      const downMs = 500 + Math.floor(random() * 3_000);
      await under.get("database");
      meanwhile(
        "database",
        (async () => {
          await o.proxy.drop();
          await sleep(downMs);
          await o.proxy.restore();
        })(),
      );
      counts.databaseOutages++;
      actions.push(`${at} postgres away ${downMs} ms`);
    } else {
      const ms = 60_000 * (1 + Math.floor(random() * 30));
      const now = sim.clock.advance(ms);
      moves.push({ wall: now - sim.clock.offsetMs(), offset: sim.clock.offsetMs() });
      counts.clockMoves++;
      actions.push(`${at} clock +${ms / 60_000} min`);
    }
  }
  const wallOf = (simMs: number) => {
    for (let i = moves.length - 1; i >= 0; i--) {
      const m = moves[i]!;
      if (simMs - m.offset >= m.wall) return simMs - m.offset;
    }
    return simMs;
  };
  return { actions, counts, wallOf };
}
