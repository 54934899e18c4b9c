import type { Env } from './config';
import type { Upstream } from './start';

/** The configured remote upstream, or undefined when the embedded simulator is to be started. */
export function remoteUpstream(env: Env): Upstream | undefined {
  if (env.UPSTREAM_BASE_URL === undefined || env.PARTNER_ID === undefined || env.ACCOUNT_ID === undefined)
    return undefined;
  return {
    baseUrl: env.UPSTREAM_BASE_URL,
    partnerId: env.PARTNER_ID,
    accountId: env.ACCOUNT_ID,
    mode: 'remote',
    demo: null,
  };
}
