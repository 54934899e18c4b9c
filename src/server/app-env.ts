import type { SessionUser } from '@/contract/proxy-api';

/** Per-request values: who the request acts as (set by the access guard), and what routes report to the request log. */
export interface AppEnv {
  Variables: {
    user: SessionUser;
    /** Open demo mode: no user in the store, everyone acts as admin. */
    open: boolean;
    upstreamCalls: number;
    loadsServed: number;
  };
}
