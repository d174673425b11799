import "server-only";
// NDJSON answers (a resource with reply "ndjson"): events written one JSON object per line as a run produces
// them, with back-pressure, so a slow reader slows the run instead of filling the server's memory.
import { ERROR_STATUS } from "@/lib/api/errors";
import { describeFailure, errorBody } from "@/server/failures";
import { logger } from "@/server/log";

/** What an NDJSON route's handler gives back; the wrapper turns it into the answer. */
export type NdjsonBody<E> = {
  /**
   * Runs and emits events. Until `isStart` has seen its first event, a rejection is the request's own answer
   * (a refusal, an unwritable audit log); after it, a failure becomes the stream's error line.
   */
  run: (emit: (event: E) => Promise<void>, signal: AbortSignal) => Promise<unknown>;
  isStart: (event: E) => boolean;
};

/** The stream's error line: the same words as an error answer, with the status it would have had. */
export function errorEvent(e: unknown): { type: "error"; status: number } & ReturnType<typeof errorBody>["error"] {
  const failure = describeFailure(e);
  return { type: "error", status: ERROR_STATUS[failure.code], ...errorBody(failure).error };
}

/** Resolves once the run's first event is out (or rejects with the run's own failure before it). */
export async function ndjsonResponse<E>(
  body: NdjsonBody<E>,
  o: { signal?: AbortSignal; requestId?: string },
): Promise<Response> {
  const abort = new AbortController();
  const cancel = () => abort.abort(o.signal?.reason);
  if (o.signal?.aborted) cancel();
  o.signal?.addEventListener("abort", cancel, { once: true });

  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let drained: (() => void) | null = null;
  let closed = false;
  const release = () => {
    drained?.();
    drained = null;
  };
  abort.signal.addEventListener("abort", release, { once: true });
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: release,
      cancel: () => {
        closed = true;
        abort.abort(new Error("the reader closed the stream"));
      },
    },
    { highWaterMark: 64 },
  );
  const write = async (line: unknown) => {
    if (closed) return;
    controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
    if ((controller.desiredSize ?? 1) <= 0 && !abort.signal.aborted) await new Promise<void>((r) => (drained = r));
  };
  const end = () => {
    o.signal?.removeEventListener("abort", cancel);
    if (closed) return;
    closed = true;
    controller.close();
  };

  let markStarted!: () => void;
  const started = new Promise<"started">((r) => (markStarted = () => r("started")));
  const run = body.run((event) => {
    if (body.isStart(event)) markStarted();
    return write(event);
  }, abort.signal);
  try {
    await Promise.race([started, run]);
  } catch (e) {
    o.signal?.removeEventListener("abort", cancel);
    throw e;
  }
  run.then(end, async (e: unknown) => {
    logger.error({ err: String(e), requestId: o.requestId }, "stream failed after it started");
    await write(errorEvent(e)).catch(() => undefined);
    end();
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      // Reverse proxies must pass lines through as they come, or progress arrives all at once at the end.
      "X-Accel-Buffering": "no",
    },
  });
}
