/** Per-request values that routes report to the request log. */
export interface AppEnv {
  Variables: {
    upstreamCalls: number;
    loadsServed: number;
  };
}
