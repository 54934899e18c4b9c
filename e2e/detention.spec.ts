import { readFileSync } from 'node:fs';
import { manualClock, type Stack } from '@/testing/stack';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import { expect, test } from './support/fixtures';
import { startOwnStack } from './support/own-stack';

/**
 * Issue 36 part 3 in the browser: a load standing at a stop past its free time runs a detention
 * clock on the board and on its page, and its page downloads the evidence as CSV. The simulator's
 * clock stands still; the page's runs on, on the demo's clock (60 track minutes a real minute).
 */
let stack: Stack;
test.beforeAll(async () => {
  stack = await startOwnStack({ loads: 160, now: manualClock(Date.now()).now });
});
test.afterAll(async () => {
  await stack?.close();
});

/** The load that has stood longest at a stop it has not left, by the proxy's outlook. */
async function longestStay(): Promise<{ id: string; since: number }> {
  const ids = stack.sim.fleet.map((p) => String(p.externalId));
  const res = await fetch(`${stack.proxy.url}/api/pull/by-external-id`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'haulview',
      origin: new URL(stack.proxy.url).origin,
    },
    body: JSON.stringify({ ids, include: { extras: true } }),
  });
  const body: unknown = await res.json();
  if (!res.ok) throw new Error(JSON.stringify(body));
  const answer = ProxyPullAnswer.parse(body);
  let best: { id: string; since: number } | undefined;
  for (const load of answer.loads.map((l) => LoadView.parse(l)))
    for (const stop of load.outlook?.stops ?? [])
      if (
        stop.progress === 'arrived' &&
        stop.arrivedAt !== undefined &&
        (!best || stop.arrivedAt < best.since)
      )
        best = { id: load.id, since: stop.arrivedAt };
  if (!best) throw new Error('the fleet has no load standing at a stop');
  return best;
}

test('a load past its free time: the detention clock on the board and its page, and the CSV', async ({
  page,
}) => {
  const { id, since } = await longestStay();
  // 2 h free on the demo's clock is 2 real minutes; the fleet's longest stay is well past it.
  expect((Date.now() - since) * 60).toBeGreaterThan(2 * 3_600_000);
  await page.goto(`${stack.proxy.url}/?w=e:${id}`);
  const row = page.locator(`[role=row][data-load="external-id:${id}"]`);
  // "open": its phone went dark at the stop and no departure is known; the clock runs on all the same.
  await expect(row.locator('[data-detention]')).toHaveText(
    /^At (pickup|delivery) · (open, )?detention (\d+ h)?( ?\d+ min)?( · arrived .+ late)?$/,
  );
  const open = (await row.locator('[data-detention]').textContent())!.includes('open, ');

  await page.goto(`${stack.proxy.url}/loads/external-id/${id}`);
  // Its earlier stops say their dwell too; the one it stands at runs.
  const dwell = page.locator('[data-dwell]', { hasText: 'At the stop' });
  await expect(dwell).toHaveText(/^At the stop: (open, )?detention .+ \(inside .+\) · free time 2 h$/);
  // An open stay says why beside its clock.
  await expect(page.locator('[data-dwell-open]')).toHaveCount(open ? 1 : 0);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download detention evidence (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`detention-${id}.csv`);
  const lines = readFileSync((await download.path())!, 'utf8').split('\r\n');
  expect(lines[0]).toBe(
    'load,stop,stop_type,facility,city,what,source,stop_time,stop_zone,utc_time,lat,lon,accuracy_m,distance_m,fence_m,inside,minutes',
  );
  expect(lines.some((l) => /,arrival,(status event|pings),/.test(l))).toBe(true);
  expect(lines.some((l) => /,ping,,.*,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,.*,yes,$/.test(l))).toBe(true);
  const still = open ? '"open: no departure known, counted to download"' : 'still there at download';
  expect(lines.some((l) => l.includes(`,detention,${still},`) && /,[1-9]\d*$/.test(l))).toBe(true);
  expect(lines.some((l) => l.includes(',departure,unknown: phone dark at the stop,'))).toBe(open);
});
