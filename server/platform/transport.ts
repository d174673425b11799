import "server-only";
// One HTTP request to the platform and its whole answer, with the client's deadlines: a total timeout, a
// connect timeout, and the caller's AbortSignal. Whether the request was sent (its body written) travels with
// every failure, since a request sent may still have reached the platform.
import http from "node:http";
import https from "node:https";
import { PlatformNetworkError, PlatformTimeoutError } from "./errors";

/** `sentAt`: local ms when the request was all handed to the network (after it left, never before). */
export type RawReply = { status: number; body: string; sentAt: number | undefined };

export type RawRequest = {
  baseUrl: URL;
  agent: http.Agent;
  method: string;
  pathWithQuery: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  signal: AbortSignal | undefined;
  operationId: string;
};

export function sendRequest(o: RawRequest): Promise<RawReply> {
  const transport = o.baseUrl.protocol === "https:" ? https : http;
  return new Promise<RawReply>((resolve, reject) => {
    if (o.signal?.aborted) {
      reject(new PlatformNetworkError(o.operationId, "aborted by caller", false));
      return;
    }
    let sent = false;
    let sentAt: number | undefined;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      clearTimeout(connect);
      o.signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const req = transport.request({
      protocol: o.baseUrl.protocol,
      hostname: o.baseUrl.hostname,
      port: o.baseUrl.port || undefined,
      method: o.method,
      path: o.pathWithQuery,
      headers: o.headers,
      agent: o.agent,
    });
    const total = setTimeout(() => {
      finish(() => reject(new PlatformTimeoutError(o.operationId, "total", o.timeoutMs, sent)));
      req.destroy();
    }, o.timeoutMs);
    let connect: NodeJS.Timeout | undefined = setTimeout(() => {
      finish(() => reject(new PlatformTimeoutError(o.operationId, "connect", o.connectTimeoutMs, false)));
      req.destroy();
    }, o.connectTimeoutMs);
    const onAbort = () => {
      finish(() => reject(new PlatformNetworkError(o.operationId, "aborted by caller", sent)));
      req.destroy();
    };
    o.signal?.addEventListener("abort", onAbort, { once: true });
    req.on("socket", (socket) => {
      const connected = () => {
        clearTimeout(connect);
        connect = undefined;
      };
      if (socket.connecting) socket.once("connect", connected);
      else connected();
    });
    req.on("finish", () => {
      sent = true;
      sentAt = Date.now();
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      finish(() => reject(new PlatformNetworkError(o.operationId, err.code ?? err.message, sent)));
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (err: NodeJS.ErrnoException) =>
        finish(() => reject(new PlatformNetworkError(o.operationId, err.code ?? err.message, true))),
      );
      res.on("end", () =>
        finish(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), sentAt })),
      );
      res.on("aborted", () => finish(() => reject(new PlatformNetworkError(o.operationId, "response aborted", true))));
    });
    if (o.body) req.write(o.body);
    req.end();
  });
}

/** `promise`, or a PlatformNetworkError("aborted by caller") as soon as `signal` aborts (the work goes on). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, operationId: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new PlatformNetworkError(operationId, "aborted by caller", false));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new PlatformNetworkError(operationId, "aborted by caller", false));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
