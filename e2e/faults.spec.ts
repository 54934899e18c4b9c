import type { Page } from '@playwright/test';
import { parsePullAnswer } from '@/contract/parse-pull';
import type { Load } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import type { Stack } from '@/testing/stack';
import { E2E_CREDENTIALS } from './support/credentials';
import { expect, test } from './support/fixtures';
import { leakyLogLines, startOwnStack } from './support/own-stack';
import { startTcpGate } from './support/tcp-gate';

/**
 * The fault suite in the browser: the dashboard of this spec talks to the simulator through a TCP gate,
 * with a short deadline and a 2 s refresh. One load is selected, so the browser keeps its whole track
 * (merged from `since` deltas) through every fault. Each fault must bring a clear message while the
 * last data stays; once it clears, the page recovers without a click; at the end the track the page
 * shows equals the simulator's ground truth.
 *
 * The clock of the simulator and the proxy runs in real time plus `offset`: after a fault, time is
 * moved on by the breaker's pause, as if one had waited for it, and at the end it stands still, so
 * that the ground truth and the page can be compared at one instant.
 */
let offset = 0;
let frozenAt: number | null = null;
const now = () => frozenAt ?? Date.now() + offset;

const DEADLINE_MS = 1000;
const LOADS = 10;

let gate: Awaited<ReturnType<typeof startTcpGate>>;
let stack: Stack;

test.beforeAll(async () => {
  gate = await startTcpGate();
  stack = await startOwnStack({
    loads: LOADS,
    now,
    env: { REFRESH_SECONDS: '2', UPSTREAM_TIMEOUT_MS: String(DEADLINE_MS) },
    upstream: { baseUrl: gate.url },
  });
  gate.target(stack.sim.url);
});

test.afterAll(async () => {
  await stack?.close();
  await gate?.close();
});

/** A load whose phone reports and whose trip lasts well beyond this spec: new pings all along. */
function rollingLoad(): string {
  const t = now();
  const plans = stack.sim.fleet.filter(
    (p) => p.silentSince === undefined && !p.appNotInstalled && p.departAt < t - 60_000,
  );
  const arrival = (p: (typeof plans)[number]) => p.departAt + p.driveMinutes * 1000;
  const plan = plans.sort((a, b) => arrival(b) - arrival(a))[0];
  if (!plan || arrival(plan) < t + 15 * 60_000) throw new Error('no load rolls long enough');
  return String(plan.externalId);
}

/** The simulator's whole answer for the fleet, read as the domain reads it. */
async function groundTruth(): Promise<Map<string, Load>> {
  const response = await fetch(`${stack.sim.url}/loadtrackservice/getLoadTrackDetailsServiceV2`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      partnerId: Number(E2E_CREDENTIALS.partnerId),
      accountId: E2E_CREDENTIALS.accountId,
      loadTrackExternalIds: stack.sim.fleet.map((p) => String(p.externalId)),
      sendNewData: 'no',
    }),
  });
  const parsed = parsePullAnswer(await response.json());
  if ('error' in parsed) throw new Error(parsed.error);
  const loads = new Map<string, Load>();
  parsed.data.details.forEach((d, i) => {
    const load = normalizeLoad(d, 'external-id', `details[${i}]`);
    if (load) loads.set(load.id, load);
  });
  return loads;
}

/** "123 pings · 4 status events · 2 documents": the selected load's track as the page holds it. */
async function trackShown(page: Page) {
  // The panel's track line alone: the driver's phone stands right before it in the panel's text.
  const line = page.getByRole('region', { name: 'Selected load' }).getByText(/^\d+ pings · /);
  const text = (await line.count()) > 0 ? ((await line.first().textContent()) ?? '') : '';
  const m = /^(\d+) pings · (\d+) status events · (\d+) documents/.exec(text);
  return m ? { pings: Number(m[1]), events: Number(m[2]), documents: Number(m[3]) } : null;
}

interface Fault {
  name: string;
  on: () => void | Promise<void>;
  off: () => void | Promise<void>;
  /** What the banner says while it lasts (also once the proxy pauses its calls after repeated failures). */
  message: RegExp;
}

const FAULTS: Fault[] = [
  {
    name: 'the service is down (connections refused)',
    on: () => gate.down(),
    off: () => gate.up(),
    message: /tracking service (keeps failing \(it )?cannot be reached right now/,
  },
  {
    name: 'the service is slower than the deadline',
    on: () => stack.sim.setFaults({ latencyMs: 3 * DEADLINE_MS }),
    off: () => stack.sim.setFaults({}),
    message: /tracking service (keeps failing \(it )?is too slow to answer/,
  },
  {
    name: 'the service answers 500',
    on: () => stack.sim.setFaults({ errorRate: 1 }),
    off: () => stack.sim.setFaults({}),
    message: /tracking service (keeps failing \(it )?failed \(HTTP 500\)/,
  },
  {
    name: 'the service answers 429 with Retry-After',
    on: () => stack.sim.setFaults({ tooManyRequestsRate: 1, retryAfterSeconds: 4 }),
    off: () => stack.sim.setFaults({}),
    message: /tracking service asks us to slow down; next try in \d s/,
  },
  {
    name: 'the service answers a page that is no JSON',
    on: () => stack.sim.setFaults({ invalidJsonRate: 1 }),
    off: () => stack.sim.setFaults({}),
    message: /tracking service (keeps failing \(it )?sent an answer Haulview cannot read/,
  },
  {
    name: 'the service answers a JSON cut short',
    on: () => stack.sim.setFaults({ truncateRate: 1 }),
    off: () => stack.sim.setFaults({}),
    message: /tracking service (keeps failing \(it )?sent an answer Haulview cannot read/,
  },
  {
    name: 'the connection breaks off in the middle of the answer',
    on: () => gate.cutAfter(600),
    off: () => gate.cutAfter(null),
    message: /tracking service (keeps failing \(it )?sent an answer Haulview cannot read/,
  },
  {
    name: 'the connection is reset after the cursor moved',
    on: () => stack.sim.setFaults({ resetRate: 1 }),
    off: () => stack.sim.setFaults({}),
    message: /tracking service (keeps failing \(it )?cannot be reached right now/,
  },
];

test('every upstream fault: a clear message, the last data stays, recovery on its own, the final track equals the ground truth', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const id = rollingLoad();
  const grid = page.getByRole('grid', { name: /Loads, \d+ shown/ });
  const map = page.locator('.leaflet-container');
  const banner = page.getByRole('alert');
  await page.goto(`${stack.proxy.url}/?load=e:${id}`);
  await expect(grid).toHaveAccessibleName(`Loads, ${LOADS} shown`);
  await expect(map).toHaveAttribute('data-breadcrumb', /^[1-9]\d*$/);
  await expect(banner).toHaveCount(0);

  for (const fault of FAULTS) {
    await test.step(fault.name, async () => {
      const before = await trackShown(page);
      expect(before).not.toBeNull();
      await fault.on();
      await expect(banner).toContainText(fault.message, { timeout: 20_000 });
      // The last data stays, through refreshes that keep failing.
      const points = await map.getAttribute('data-points');
      const during = await trackShown(page);
      expect(during!.pings).toBeGreaterThanOrEqual(before!.pings);
      await page.waitForTimeout(2500);
      await expect(banner).toBeVisible();
      await expect(grid).toHaveAccessibleName(`Loads, ${LOADS} shown`);
      await expect(map).toHaveAttribute('data-points', points!);
      expect(await trackShown(page)).toEqual(during);
      await page.screenshot({ path: `test-results/screenshots/fault-${FAULTS.indexOf(fault) + 1}.png` });

      // The fault clears; time passes beyond any Retry-After or pause; the page recovers by itself.
      await fault.off();
      offset += 31_000;
      await expect(banner).toHaveCount(0, { timeout: 20_000 });
      await expect
        .poll(async () => (await trackShown(page))!.pings, { timeout: 20_000 })
        .toBeGreaterThan(during!.pings);
    });
  }

  // Time stands still a little later than now: the next refresh brings everything up to that instant.
  frozenAt = Date.now() + offset + 5_000;
  await expect
    .poll(
      async () => {
        const a = await trackShown(page);
        await page.waitForTimeout(2500);
        return JSON.stringify(a) === JSON.stringify(await trackShown(page)) ? a : null;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
  const truth = await groundTruth();
  const expected = truth.get(id)!;
  expect(await trackShown(page)).toEqual({
    pings: expected.pings.length,
    events: expected.events.length,
    documents: expected.documents.length,
  });
  await expect(map).toHaveAttribute('data-breadcrumb', String(expected.pings.length));
  await expect(map).toHaveAttribute(
    'data-points',
    String([...truth.values()].filter((l) => l.latestLocation).length),
  );
  // The detail page of the same load shows the same track, comments included.
  await page.getByRole('region', { name: 'Selected load' }).getByRole('link', { name: 'Details' }).click();
  await expect(page.getByRole('heading', { name: `Pings (${expected.pings.length})` })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Comments (${expected.comments.length})` })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Documents (${expected.documents.length})` })).toBeVisible();

  const { lines, leaks } = leakyLogLines(stack);
  expect(lines).toBeGreaterThan(0);
  expect(leaks, 'log lines that carry a secret').toEqual([]);
});
