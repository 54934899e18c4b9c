import type { Page } from '@playwright/test';

/** One load of the proxy's answer (`LoadView`), with the fields the specs choose loads by. */
export interface DemoLoad {
  id: string;
  latestLocation?: unknown;
  latestTemperature?: unknown;
  pings?: unknown[];
  documents?: unknown[];
  comments?: unknown[];
}

/**
 * The demo fleet's loads by external id, pulled through the proxy as the SPA pulls them, for a spec
 * to pick a load with what it needs (a reefer on the road, documents…).
 */
export async function demoFleet(page: Page, include?: Record<string, boolean>): Promise<DemoLoad[]> {
  const config = (await (await page.request.get('/api/config')).json()) as {
    demo: { externalIds: string[] };
  };
  const answer = (await (
    await page.request.post('/api/pull/by-external-id', {
      headers: { 'X-Requested-With': 'haulview' },
      data: { ids: config.demo.externalIds, ...(include ? { include } : {}) },
    })
  ).json()) as { loads: DemoLoad[] };
  return answer.loads;
}
