import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

export type LogSink = (line: string) => void;

/**
 * The request log's lines on stdout, written as they are: console.log formats its arguments and
 * asks whether the stream takes colours for each line, work every request would pay for.
 */
export const toStdout: LogSink = (line) => void process.stdout.write(`${line}\n`);

/**
 * The runtime's own lines (the puller, the change feed, alerts, a shutdown) with the instant they were
 * written first, as the request log's JSON lines carry theirs: an operator reads them side by side.
 */
export const stamped =
  (sink: LogSink, now: () => number = Date.now): LogSink =>
  (line) =>
    sink(`${new Date(now()).toISOString()} ${line}`);

const PROBES = new Set(['/api/health', '/api/ready']);

/** A share link's token opens its loads to anyone who has it: the log names the route, not the token. */
export function loggedPath(path: string): string {
  return path.replace(/^(\/api)?\/share\/[^/]+/, '$1/share/…');
}

/**
 * One structured line per request but a probe that passed: method, path (no query: ids can be
 * sensitive; no share token), status, ms, upstream calls and loads served. Nothing from bodies or
 * headers, so no secret can reach it.
 */
export function requestLog(sink: LogSink): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const start = performance.now();
    c.set('upstreamCalls', 0);
    c.set('loadsServed', 0);
    await next();
    // A balancer's probes would fill the log at rest; a failing one is worth its line.
    if (c.res.status === 200 && PROBES.has(c.req.path)) return;
    sink(
      JSON.stringify({
        t: new Date().toISOString(),
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
        upstreamCalls: c.get('upstreamCalls'),
        loads: c.get('loadsServed'),
      }),
    );
  };
}
