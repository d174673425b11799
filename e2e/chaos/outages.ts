// The chaos run's outages of what the instances share. PostgreSQL is the machine's cluster, used by others too:
// it is never restarted. Instead the instances reach it through a TCP proxy of the run's own, and an outage
// is the proxy dropping every connection and refusing new ones for a while: what a restart or a lost network
// looks like to the app (connections broken, then refused, then accepted again). Redis is the run's own
// redis-server (as the scale suite starts it), killed and started again on the same port.
import net from "node:net";
import { startRedis, type Proc } from "../support/processes";

export type TcpProxy = {
  port: number;
  /** Breaks every connection through it and refuses new ones until `restore`. */
  drop(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const serve = () =>
    net.createServer((inbound) => {
      const outbound = net.connect(target.port, target.host);
      for (const s of [inbound, outbound]) {
        sockets.add(s);
        s.on("error", () => undefined);
        s.on("close", () => {
          sockets.delete(s);
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
  const listen = (server: net.Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
    });
  let server: net.Server | null = serve();
  const port = await listen(server, 0);
  const drop = async () => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    port,
    drop,
    async restore() {
      if (server) return;
      server = serve();
      await listen(server, port);
    },
    close: drop,
  };
}

export type RedisControl = {
  url: string;
  /** SIGKILL, then down for `downMs`, then a fresh redis-server (empty: nothing persisted) on the same port. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
};

export async function startRunRedis(): Promise<RedisControl> {
  let proc: Proc = await startRedis(undefined, "chaos-redis");
  const port = Number(new URL(proc.url).port);
  return {
    url: proc.url,
    async restart(downMs) {
      const exited = new Promise((r) => proc.proc.once("exit", r));
      try {
        process.kill(-proc.proc.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
      await exited;
      await new Promise((r) => setTimeout(r, downMs));
      proc = await startRedis(port, "chaos-redis");
    },
    stop: () => proc.stop(),
  };
}
