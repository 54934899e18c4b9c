import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { mapState, uncounted } from './support/map-state';
import { phaseColors, statusColors } from '../tailwind.config';

interface Config {
  demo: { externalIds: string[]; loadNumbers: string[] } | null;
}

async function demoIds(page: Page): Promise<Config['demo'] & object> {
  const config = (await (await page.request.get('/api/config')).json()) as Config;
  if (!config.demo) throw new Error('the e2e suite runs against the simulator');
  return config.demo;
}

/** The dispatcher with nothing watched (a first visit would watch the demo fleet), and the demo's ids. */
async function emptyBoard(page: Page): Promise<Config['demo'] & object> {
  await page.goto('/?w=');
  await page.evaluate(() => window.localStorage.clear());
  await page.goto('/?w=');
  return demoIds(page);
}

const board = (page: Page) => page.getByRole('grid', { name: /Loads, \d+ shown/ });
const map = (page: Page) => page.locator('.leaflet-container');

test('a first visit watches the demo fleet: rows, markers on one canvas, the offline basemap', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  const demo = await demoIds(page);
  const total = demo.externalIds.length + demo.loadNumbers.length;
  await expect(board(page)).toHaveAccessibleName(`Loads, ${total} shown`);
  await expect(map(page)).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  await expect(page.locator('.leaflet-overlay-pane canvas')).toHaveCount(1);
  await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
  // Its tiles are images placed by left and top: no canvas and no 3D transform per tile, each of
  // which would make the tile a composited layer of its own.
  const basemapTiles = page.locator('.leaflet-haulview-basemap-pane .leaflet-tile');
  await expect.poll(() => basemapTiles.count()).toBeGreaterThan(4);
  expect(
    await basemapTiles.evaluateAll(
      (tiles) =>
        tiles.filter((t) => t.tagName !== 'IMG' || t.style.transform !== '' || t.style.left === '').length,
    ),
  ).toBe(0);
  await expect(page).toHaveURL(/[?&]w=/);
  // The nav counts the documents not reviewed from their URLs, which the pull worker sends without
  // the documents themselves; the answer it read was marked as read there.
  await expect(page.getByRole('link', { name: /^Documents ?, \d+ not reviewed$/ })).toBeVisible();
  const documentsAnswer = await page.evaluate(() =>
    performance
      .getEntriesByName('haulview:answer')
      .map((m) => (m as PerformanceMark).detail as { include?: string; in?: string })
      .find((d) => String(d.include).includes('"documents":true')),
  );
  expect(documentsAnswer).toMatchObject({ in: 'worker' });
  await page.screenshot({ path: 'test-results/screenshots/dispatcher.png' });
  expect(errors).toEqual([]);
  // A return visit, from the documents inbox's link or a bare address: the list this browser kept
  // is back in the URL, so the address bar is always a link to the same board.
  const kept = new URL(page.url()).searchParams.get('w');
  await page.goto('/documents');
  await expect.poll(() => new URL(page.url()).searchParams.get('w')).toBe(kept);
  await page.goto('/');
  await expect(board(page)).toHaveAccessibleName(`Loads, ${total} shown`);
  await expect.poll(() => new URL(page.url()).searchParams.get('w')).toBe(kept);
});

test('paste 3 external ids and 2 load numbers: 5 rows, 5 markers; select one: breadcrumb, circle, URL; reload keeps it', async ({
  page,
}) => {
  const demo = await emptyBoard(page);
  // Loads that have reported: the board's most urgent order puts them first among the demo fleet.
  const external = demo.externalIds.slice(0, 12);
  await page.getByLabel(/Watch loads/).fill(external.join('\n'));
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Clear all' }).waitFor();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Clear all' }).click();
  await expect(board(page)).toHaveAccessibleName('Loads, 0 shown');

  const rolling = await page.evaluate(async (ids) => {
    const res = await fetch('/api/pull/by-external-id', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'haulview' },
      body: JSON.stringify({
        ids,
        include: { locations: false, events: false, documents: false, comments: false },
      }),
    });
    const body = (await res.json()) as {
      loads: { id: string; latestLocation?: { lat: number; lon: number } }[];
    };
    return body.loads.flatMap((d) =>
      d.latestLocation ? [{ id: d.id, lat: d.latestLocation.lat, lon: d.latestLocation.lon }] : [],
    );
  }, demo.externalIds);
  const three = rolling.slice(0, 3).map((r) => r.id);
  await page.getByLabel(/Watch loads/).fill(`${three[0]}, ${three[1]}\t${three[2]}`);
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('radio', { name: 'Load number' }).check();
  await page.getByLabel(/Watch loads/).fill(demo.loadNumbers.slice(0, 2).join('\n'));
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(board(page)).toHaveAccessibleName('Loads, 5 shown');
  await expect(page.getByRole('row')).toHaveCount(5);
  // Five points on the map, every one drawn: a marker, or counted by a cluster badge at this zoom.
  await expect(map(page)).toHaveAttribute('data-points', '5');
  await expect.poll(() => uncounted(page)).toBe(0);

  // Select the first external id from the board: its trail is drawn and the URL says so.
  const picked = page.getByRole('row').filter({ hasText: three[0]! });
  const before = await picked.boundingBox();
  await picked.click();
  // A click selects; it does not also outline a row as the keyboard's place (that read as two selections).
  await expect(page.getByRole('row').first()).toHaveCSS('outline-style', 'none');
  await expect(page).toHaveURL(new RegExp(`load=e:${three[0]}`));
  await expect(page.getByRole('region', { name: 'Selected load' })).toContainText(three[0]!);
  // The row stays under the pointer: the selected load's panel opens over the map, not above the rows.
  expect((await picked.boundingBox())?.y).toBe(before?.y);
  await expect(picked).toHaveAttribute('aria-selected', 'true');
  await expect(map(page)).toHaveAttribute('data-breadcrumb', /^[1-9]\d*$/);
  await expect(map(page)).toHaveAttribute('data-circles', /^[1-9]\d*$/);
  // A legend over the map names what the trail draws, while it is drawn.
  const legend = page.getByRole('list', { name: 'Trail legend' });
  await expect(legend).toContainText('Trail');
  await expect(legend).toContainText('Document sent here');
  // The view is written to the URL once the map has come to rest: wait until it stays put.
  const mapParam = () => new URL(page.url()).searchParams.get('map');
  const atRest = async () => {
    await expect
      .poll(async () => {
        const before = mapParam();
        await page.waitForTimeout(500);
        return before !== null && before === mapParam();
      })
      .toBe(true);
    return (mapParam() ?? '').split(',').map(Number) as [number, number, number];
  };
  // Zoomed out as far as the map goes (2), "Fit selected" brings the view back in around the trail.
  const zoomOut = page.getByRole('button', { name: 'Zoom out' });
  // One step at a time: a click while the map still zooms is not taken.
  for (let i = 0; i < 8 && !(await zoomOut.getAttribute('class'))?.includes('leaflet-disabled'); i++) {
    await zoomOut.click();
    await page.waitForTimeout(400);
  }
  const out = await atRest();
  expect(out[2]).toBe(2);
  await page.getByRole('button', { name: 'Fit selected' }).click();
  await expect.poll(() => Number(mapParam()?.split(',')[2])).toBeGreaterThan(out[2]);
  await atRest();
  await page.screenshot({ path: 'test-results/screenshots/dispatcher-selected.png' });
  // The markers are stamped on the canvas in their status colours (exact, inside each circle).
  const paintedIn = (colors: string[]) =>
    page.evaluate((wantedColors) => {
      const canvas = document.querySelector<HTMLCanvasElement>('.leaflet-overlay-pane canvas');
      const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      const wanted = new Set(wantedColors.map((c) => parseInt(c.slice(1), 16)));
      let count = 0;
      for (let i = 0; pixels && i < pixels.length; i += 4)
        if (pixels[i + 3] === 255 && wanted.has((pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!))
          count++;
      return count;
    }, colors);
  // At least one marker's ring (radius 7 around a dot of 3: about 90 pixels, less the smoothed edges)…
  expect(
    await paintedIn([
      statusColors.fresh,
      statusColors.stale,
      statusColors.silent,
      statusColors.unknown,
      statusColors.finished,
    ]),
  ).toBeGreaterThan(30);
  // …and its dot, in its load's trip phase (the demo's reporting loads are on their way).
  expect(await paintedIn(Object.values(phaseColors))).toBeGreaterThan(5);
  const url = page.url();
  expect(url).toMatch(/[?&]map=/);

  await page.reload();
  await expect(page.getByRole('region', { name: 'Selected load' })).toContainText(three[0]!);
  await expect(board(page)).toHaveAccessibleName('Loads, 5 shown');
  await expect(map(page)).toHaveAttribute('data-breadcrumb', /^[1-9]\d*$/);
  expect(new URL(page.url()).searchParams.get('map')).toBe(new URL(url).searchParams.get('map'));

  // On the map itself: the pointer over a marker names its load, a click selects it.
  await page.getByRole('button', { name: 'Close selection' }).click();
  await expect(page.getByRole('region', { name: 'Selected load' })).toHaveCount(0);
  // Its trail goes with it, and the legend's trail entries.
  await expect(map(page)).not.toHaveAttribute('data-breadcrumb');
  await expect(legend).toHaveCount(0);
  await expect(map(page)).toHaveAttribute('data-drawing', 'done');
  const spot = await page.evaluate(
    (colors) => {
      const canvas = document.querySelector<HTMLCanvasElement>('.leaflet-overlay-pane canvas');
      if (!canvas) return null;
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      const wanted = new Set(colors.map((c) => parseInt(c.slice(1), 16)));
      const box = canvas.getBoundingClientRect();
      const scale = box.width / canvas.width;
      // The first pixel of a marker's fill from the top; its centre is a few pixels below.
      for (let i = 0; pixels && i < pixels.length; i += 4) {
        const x = (i / 4) % canvas.width;
        const y = Math.floor(i / 4 / canvas.width);
        const inView = box.left + x * scale > 30 && box.top + y * scale > 30;
        if (
          inView &&
          pixels[i + 3] === 255 &&
          wanted.has((pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!)
        )
          return { x: box.left + x * scale, y: box.top + (y + 5) * scale };
      }
      return null;
    },
    [
      statusColors.fresh,
      statusColors.stale,
      statusColors.silent,
      statusColors.unknown,
      statusColors.finished,
    ],
  );
  expect(spot).not.toBeNull();
  await page.mouse.move(spot!.x, spot!.y);
  const tooltip = page.locator('.leaflet-tooltip');
  await expect(tooltip).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/dispatcher-tooltip.png' });
  const named = (await tooltip.textContent())?.split(' · ')[0] ?? '';
  expect([...three, ...demo.loadNumbers.slice(0, 2)]).toContain(named);
  await page.mouse.click(spot!.x, spot!.y);
  await expect(page.getByRole('region', { name: 'Selected load' })).toContainText(named);

  // Other loads' circles, drawn where they reach past their markers: map-details.spec.ts.
});

test('an unknown id shows as not found, and a malformed one is refused with the reason', async ({ page }) => {
  await page.goto('/?w=');
  await page.getByLabel(/Watch loads/).fill(`no-such-load ${'x'.repeat(70)}`);
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('alert')).toContainText('at most 64 characters');
  await expect(page.getByText(/Not found by the tracking service \(1\)/)).toBeVisible();
  // Not all digits, so not an external id: read as a load number, and said so.
  await expect(page.getByText('no-such-load (load number)')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'read as load numbers' })).toBeVisible();
  // Not counted as watched; removed in one click.
  await expect(page.getByText('(0 watched · 1 not found)')).toBeVisible();
  await page.getByRole('button', { name: 'Remove it' }).click();
  await expect(page.getByText(/Not found by the tracking service/)).toHaveCount(0);
  await expect(page.getByText('(0 watched)')).toBeVisible();
});

test('stop watching one load: the × on an id not found, and "Stop watching" on the selected load', async ({
  page,
}) => {
  const demo = await emptyBoard(page);
  const [kept, dropped] = demo.externalIds;
  await page.getByLabel(/Watch loads/).fill(`${kept}\n${dropped}\n999999999`);
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(board(page)).toHaveAccessibleName('Loads, 2 shown');
  await expect(page.getByText(/Not found by the tracking service \(1\)/)).toBeVisible();
  const watched = () => new URL(page.url()).searchParams.get('w');
  const stored = () => page.evaluate(() => window.localStorage.getItem('haulview.watch'));
  await expect(page.getByText('(2 watched · 1 not found)')).toBeVisible();
  expect(watched()).toBe(`e:${kept},${dropped},999999999`);

  // The × beside the id not found: it leaves the list, the loads found stay.
  await page.getByRole('button', { name: 'Stop watching 999999999 (external id)' }).click();
  await expect(page.getByText(/Not found by the tracking service/)).toHaveCount(0);
  await expect(page.getByText(/ of 2 loads on the map$/)).toBeVisible();
  await expect.poll(watched).toBe(`e:${kept},${dropped}`);
  expect(await stored()).toBe(`e:${kept},${dropped}`);
  await expect(board(page)).toHaveAccessibleName('Loads, 2 shown');

  // "Stop watching" under the selected load: that load's row goes, the other stays. Clicked in the
  // row's middle, where the driver's phone once was a link that called rather than selected; the
  // phone is now an icon at the row's end, named by its full number.
  const droppedRow = page.getByRole('row').filter({ hasText: dropped! });
  await expect(droppedRow.getByRole('link', { name: /^Call .+ at \+\d{11}$/ })).toBeVisible();
  await droppedRow.click();
  const selected = page.getByRole('region', { name: 'Selected load' });
  await expect(selected).toContainText(dropped!);
  await expect(map(page)).toHaveAttribute('data-breadcrumb', /^[1-9]\d*$/);
  await selected.getByRole('button', { name: 'Stop watching' }).click();
  // Its panel and trail close with it: a load no longer watched is not followed.
  await expect(selected).toHaveCount(0);
  await expect(map(page)).not.toHaveAttribute('data-breadcrumb');
  expect(new URL(page.url()).searchParams.get('load')).toBeNull();
  await expect(board(page)).toHaveAccessibleName('Loads, 1 shown');
  await expect(page.getByRole('row')).toHaveCount(1);
  await expect(page.getByRole('row')).toContainText(kept!);
  await expect(page.getByText(/ of 1 loads on the map$/)).toBeVisible();
  await expect.poll(watched).toBe(`e:${kept}`);
  expect(await stored()).toBe(`e:${kept}`);
  await page.screenshot({ path: 'test-results/screenshots/dispatcher-stop-watching.png' });

  // Gone for good: a reload, or the link, opens the board without it.
  await page.reload();
  await expect(board(page)).toHaveAccessibleName('Loads, 1 shown');
  await expect(page.getByRole('row')).toContainText(kept!);
});

test('the board’s filter reaches the map and the URL: needs attention, the selected load kept, reload, show all', async ({
  page,
}) => {
  await page.goto('/');
  const demo = await demoIds(page);
  const total = demo.externalIds.length + demo.loadNumbers.length;
  await expect(board(page)).toHaveAccessibleName(`Loads, ${total} shown`);
  await expect(map(page)).toHaveAttribute('data-points', /^[1-9]\d*$/);
  const allPoints = Number(await map(page).getAttribute('data-points'));
  const header = page.getByText(/ loads on the map/);
  await expect(header).toHaveText(`${allPoints} of ${total} loads on the map`);

  // A load that needs no attention selected first: it stays on the map whatever the filter.
  const freshRow = page
    .getByRole('row')
    .filter({ hasNotText: /Stale|Silent|Excursion|No ping yet/ })
    .first();
  const freshKey = await freshRow.getAttribute('data-load');
  await freshRow.getByRole('gridcell').first().click();
  await expect(page.getByRole('region', { name: 'Selected load' })).toBeVisible();

  const staleOnly = page.getByRole('checkbox', { name: /Needs attention/ });
  const stale = Number((await staleOnly.locator('xpath=..').textContent())?.match(/\((\d+)\)/)?.[1]);
  expect(stale).toBeGreaterThan(0);
  await staleOnly.check();
  await expect(board(page)).toHaveAccessibleName(`Loads, ${stale} shown`);
  const staleKeys = await page.getByRole('row').evaluateAll((rows) => rows.map((r) => r.dataset.load));
  expect(staleKeys).not.toContain(freshKey);
  // The stale loads and the selected one, and nothing else, are the map's points: markers and badges
  // count each once.
  await expect(map(page)).toHaveAttribute('data-points', String(stale + 1));
  await expect.poll(() => uncounted(page)).toBe(0);
  await expect(header).toHaveText(`${stale + 1} of ${total} loads on the map, as filtered on the board`);
  // The selection's panel says why the map has one load more than the board.
  await expect(page.getByRole('region', { name: 'Selected load' })).toContainText(
    "not in the board's filter",
  );
  await expect(page).toHaveURL(/[?&]stale=1(&|$)/);
  await page.screenshot({ path: 'test-results/screenshots/dispatcher-filtered.png' });

  // A reload (or the link) opens the same filtered board and map.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /Needs attention/ })).toBeChecked();
  await expect(board(page)).toHaveAccessibleName(`Loads, ${stale} shown`);
  await expect(map(page)).toHaveAttribute('data-points', String(stale + 1));

  // "Show all" clears the board's filter, and the map draws every load again.
  await page.getByRole('button', { name: 'Show all' }).click();
  // The button goes with the filter; the keyboard's focus goes to the filter's text box, not the page.
  await expect(page.getByRole('searchbox', { name: 'Filter loads' })).toBeFocused();
  await expect(page.getByRole('checkbox', { name: /Needs attention/ })).not.toBeChecked();
  await expect(board(page)).toHaveAccessibleName(`Loads, ${total} shown`);
  await expect(map(page)).toHaveAttribute('data-points', String(allPoints));
  await expect(header).toHaveText(`${allPoints} of ${total} loads on the map`);
  expect(new URL(page.url()).searchParams.has('stale')).toBe(false);
});

test('when the service fails, a banner says so and the last data stays', async ({ page }) => {
  await page.goto('/');
  // Both answers in (by external id and by load number): the map holds every load with a position.
  const demo = await demoIds(page);
  await expect(board(page)).toHaveAccessibleName(
    `Loads, ${demo.externalIds.length + demo.loadNumbers.length} shown`,
  );
  const onMap = page.getByText(/^\d+ of \d+ loads on the map$/);
  const points = (await onMap.textContent())!.split(' ')[0]!;
  await expect(map(page)).toHaveAttribute('data-points', points);
  await page.route('**/api/pull/**', async (route) => {
    // Slow enough to see the button while it waits.
    await new Promise((done) => setTimeout(done, 500));
    await route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'partner_credentials_rejected', message: 'x' } }),
    });
  });
  await page.getByRole('button', { name: 'Refresh' }).click();
  // While it fetches, the button says so and cannot be pressed again; it is sunk, not see-through
  // (a see-through button made each frame that toggled it lay out all of the page's layers again).
  const refreshing = page.getByRole('button', { name: 'Refreshing…' });
  await expect(refreshing).toBeDisabled();
  expect(await refreshing.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  await expect(page.getByRole('alert')).toContainText('rejected the partner credentials');
  await expect(map(page)).toHaveAttribute('data-points', points);
  await page.screenshot({ path: 'test-results/screenshots/dispatcher-error.png' });
});

test('the dispatcher view has no serious accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(map(page)).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  const results = await new AxeBuilder({ page }).exclude('.leaflet-container').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
});

test('zoomed out, nearby loads are clusters with counts that add up; a pan keeps the badges; zoomed in, the markers in view', async ({
  page,
}) => {
  // Zoom 4 over the lower 48: below the clustering zoom, with the whole demo fleet in view.
  await page.goto('/?map=39,-96,4');
  await expect(map(page)).toHaveAttribute('data-clusters', /^[1-9]\d*$/);
  // Badges, markers and points read at one instant: the board's two pulls (external ids, load
  // numbers) may each be drawn between separate reads. The badges are drawn on the map's canvas
  // (as DOM elements, each was a paint chunk Chromium sorted into layers again in many frames):
  // the map's container lists them, with where each is drawn (container pixels) and its count.
  const counted = async () => {
    const state = await mapState(page);
    return { ...state, shown: state.clustered + state.markers };
  };
  const { shown, points, clusters, badges } = await counted();
  expect(shown).toBe(points);
  // Each badge is on the canvas where the list says: its blue disc, with its count written in white
  // in the middle (read after the canvas's next frames, when Leaflet redraws it).
  // Only the badges wholly in view: the list holds those of the view and a margin around it, and
  // the canvas reaches a little past the view only.
  const size = (await map(page).boundingBox())!;
  const inView = (list: [number, number, number, number][]) =>
    list.filter(([x, y]) => x >= 25 && y >= 25 && x <= size.width - 25 && y <= size.height - 25);
  const discs = async (all: [number, number, number, number][]) => {
    const list = inView(all);
    expect(list.length).toBeGreaterThan(0);
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    return map(page).evaluate((el, at) => {
      const canvas = el.querySelector<HTMLCanvasElement>('.leaflet-overlay-pane canvas')!;
      const ctx = canvas.getContext('2d')!;
      const c = el.getBoundingClientRect();
      const r = canvas.getBoundingClientRect();
      return at.map(([x, y, , late]) => {
        // A badge with late loads has a red pill at its top right: red pixels in the 30-px square
        // above and right of its middle, where the pill of any of the four badge sizes falls.
        if (late > 0) {
          const square = ctx.getImageData(
            Math.round(((x + c.left - r.left) * canvas.width) / r.width),
            Math.round(((y - 30 + c.top - r.top) * canvas.height) / r.height),
            Math.round((30 * canvas.width) / r.width),
            Math.round((30 * canvas.height) / r.height),
          ).data;
          let red = 0;
          for (let i = 0; i < square.length; i += 4)
            if (square[i]! > 150 && square[i + 1]! < 80 && square[i + 2]! < 80) red++;
          if (red < 40) return `no red pill (${red} red pixels)`;
        }
        const px = ((x + c.left - r.left) * canvas.width) / r.width;
        const py = ((y + 9 + c.top - r.top) * canvas.height) / r.height;
        const [red, green, blue] = ctx.getImageData(Math.round(px), Math.round(py), 1, 1).data;
        if (!(blue! > 180 && red! < 90 && green! < 120)) return `rgb(${red}, ${green}, ${blue})`;
        // Its count: white strokes in the middle of the disc (written over it on the same canvas).
        const side = Math.round((12 * canvas.width) / r.width);
        const middle = ctx.getImageData(
          Math.round(((x + c.left - r.left) * canvas.width) / r.width) - side / 2,
          Math.round(((y + c.top - r.top) * canvas.height) / r.height) - side / 2,
          side,
          side,
        ).data;
        let white = 0;
        for (let i = 0; i < middle.length; i += 4)
          if (middle[i]! > 220 && middle[i + 1]! > 220 && middle[i + 2]! > 220) white++;
        return white >= 4 ? 'blue' : `no count (${white} white pixels)`;
      });
    }, list);
  };
  expect(badges).toHaveLength(clusters);
  // The demo's silent loads stand still, most of them among others: some badge counts late loads.
  expect(badges.some(([, , , late]) => late > 0)).toBe(true);
  // Polled: the layer applies a redraw in slices across frames, and on a busy machine two frames
  // can pass before it is done (a badge still reads as the canvas's clear pixels then).
  await expect.poll(() => discs(badges)).toEqual(inView(badges).map(() => 'blue'));
  // The clusters are worked out in a worker, which the page's security policy lets start.
  await expect(map(page)).toHaveAttribute('data-clusters-in', 'worker');
  // The board's answers are read into loads in a worker too: the page marks each as it arrives there.
  const lastAnswer = () =>
    page.evaluate(
      () => (performance.getEntriesByName('haulview:answer').at(-1) as PerformanceMark | undefined)?.detail,
    );
  expect(await lastAnswer()).toMatchObject({ path: expect.stringMatching(/^\/api\/pull\//), in: 'worker' });
  // A small pan: the badges are the same, none made again. The board's polls are held until the
  // badges are read: the demo fleet moves on, and a count changed by new data is a new badge.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route('**/api/pull/**', async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  await expect(map(page)).toHaveAttribute('data-drawing', 'done');
  const madeBefore = (await counted()).made;
  const box = (await map(page).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 10, { steps: 5 });
  await page.mouse.up();
  const view = () => new URL(page.url()).searchParams.get('map')?.split(',').map(Number);
  await expect.poll(() => view()?.[1]).not.toBe(-96);
  await expect(map(page)).toHaveAttribute('data-drawing', 'done');
  const panned = await counted();
  expect(panned.made).toBe(madeBefore);
  expect(panned.badges).toHaveLength(clusters);
  await expect.poll(() => discs(panned.badges)).toEqual(inView(panned.badges).map(() => 'blue'));
  // Each badge says what it counts; a click zooms in on its loads.
  const [x, y, count, late] = panned.badges[0]!;
  await page.mouse.move(box.x + x, box.y + y);
  await expect(page.locator('.leaflet-tooltip')).toHaveText(
    late > 0 ? `${count} loads, ${late} need attention` : `${count} loads`,
  );
  await page.mouse.click(box.x + x, box.y + y);
  await expect.poll(() => view()?.[2]).toBeGreaterThan(4);
  // The held polls go on (the page they came from may be gone by then); later ones go through.
  release();
  // Past the clustering zoom: no badge; a marker for each load in view, none for those far out of it.
  await page.goto('/?map=39,-96,7');
  await expect(map(page)).toHaveAttribute('data-clusters', '0');
  await expect(map(page)).toHaveAttribute('data-markers', /^[1-9]\d*$/);
  const markers = Number(await map(page).getAttribute('data-markers'));
  expect(markers).toBeLessThanOrEqual(Number(await map(page).getAttribute('data-points')));
  // Zoomed out past the clusters again, over the whole fleet: every load is a marker or in a badge.
  await page.goto('/?map=39,-96,4');
  await expect(map(page)).toHaveAttribute('data-clusters', /^[1-9]\d*$/);
  const again = await counted();
  expect(again.shown).toBe(again.points);
});

test('the fine basemap comes at a zoomed-in first view, also when it arrives before the coarse one', async ({
  page,
}) => {
  // The coarse shapes held back: the fine ones, asked for at once at zoom 7, come first.
  await page.route(
    /\/assets\/(countries-110m|states-10m|north-america-coarse)-[^/]+\.(js|json)$/,
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    },
  );
  await page.goto('/?w=&map=47.7,-87.6,7');
  await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
  await expect(map(page)).toHaveAttribute('data-basemap-detail', 'fine');
});

test('the fine basemap is made ahead once the fleet is in, before any zoom needs it', async ({ page }) => {
  let asked = false;
  page.on('request', (r) => {
    if (/\/assets\/countries-50m-[^/]+\.json$/.test(r.url())) asked = true;
  });
  // No load watched: nothing drawn, nothing made ahead.
  await page.goto('/?w=&map=39,-96,4');
  await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
  await page.waitForTimeout(1000);
  expect(asked).toBe(false);
  // The demo fleet: once its loads are in, the finer coast is fetched at zoom 4, with no zoom.
  const fine = page.waitForRequest(/\/assets\/countries-50m-[^/]+\.json$/);
  await page.goto('/?map=39,-96,4');
  await expect(board(page).getByRole('row').first()).toBeVisible();
  await fine;
  expect(await map(page).getAttribute('data-basemap-detail')).toBeNull();
  await page.locator('.leaflet-control-zoom-in').click();
  await page.locator('.leaflet-control-zoom-in').click();
  await expect(map(page)).toHaveAttribute('data-basemap-detail', 'fine');
});

test('without its basemap files the map says so and still shows the loads', async ({ page }) => {
  await page.route(/\/assets\/(countries-110m|states-10m)-[^/]+\.json$/, (route) =>
    route.fulfill({ status: 404 }),
  );
  await page.goto('/');
  await expect(map(page)).toHaveAttribute('data-basemap', 'failed');
  await expect(map(page)).toHaveAttribute('data-drawing', 'done');
  await expect(map(page)).toHaveAttribute('data-points', /^[1-9]\d*$/);
});

/**
 * The colours the offline basemap painted around the middle of the map (dx, dy CSS pixels either
 * side), read from its image tiles (each copied onto a canvas of one pixel).
 */
async function basemapColours(page: Page, dx = 0, dy = 0): Promise<string[]> {
  return page.evaluate(
    ([dx, dy]: [number, number]) => {
      const container = document.querySelector('.leaflet-container') as HTMLElement;
      const box = container.getBoundingClientRect();
      const [x, y] = [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
      const tiles = [
        ...document.querySelectorAll<HTMLImageElement>('.leaflet-haulview-basemap-pane img.leaflet-tile'),
      ].filter((t) => t.complete && t.naturalWidth > 0);
      const pixel = document.createElement('canvas');
      pixel.width = pixel.height = 1;
      const ctx = pixel.getContext('2d', { willReadFrequently: true })!;
      const seen = new Set<string>();
      for (let px = x - dx; px <= x + dx; px++)
        for (let py = y - dy; py <= y + dy; py++) {
          const tile = tiles.find((t) => {
            const r = t.getBoundingClientRect();
            return px >= r.left && px < r.right && py >= r.top && py < r.bottom;
          });
          if (!tile) {
            seen.add('no tile');
            continue;
          }
          const r = tile.getBoundingClientRect();
          const ratio = tile.naturalWidth / r.width;
          ctx.clearRect(0, 0, 1, 1);
          ctx.drawImage(
            tile,
            Math.floor((px - r.left) * ratio),
            Math.floor((py - r.top) * ratio),
            1,
            1,
            0,
            0,
            1,
            1,
          );
          const [red, green, blue, alpha] = ctx.getImageData(0, 0, 1, 1).data;
          seen.add(alpha === 0 ? 'none' : `rgb(${red}, ${green}, ${blue})`);
        }
      return [...seen];
    },
    [dx, dy] as [number, number],
  );
}

test('the offline basemap draws the Great Lakes as water, the far north as land, and Canada’s provinces, at the first zoom and the fine one', async ({
  page,
}) => {
  const water = 'rgb(219, 231, 240)';
  const land = 'rgb(244, 241, 234)';
  for (const zoom of [4, 6]) {
    // The middle of Lake Superior, then of northern Ontario.
    await page.goto(`/?w=&map=47.7,-87.6,${zoom}`);
    await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
    if (zoom >= 5) await expect(map(page)).toHaveAttribute('data-basemap-detail', 'fine');
    await expect.poll(() => basemapColours(page)).toEqual([water]);
    // Northern Ontario, and the far north: interior Alaska and Nunavut's mainland, where Russia's
    // outline across the date line once turned a band round the world into water.
    for (const place of ['51,-88', '65,-150', '66,-100']) {
      await page.goto(`/?w=&map=${place},${zoom}`);
      await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
      await expect.poll(() => basemapColours(page), place).toEqual([land]);
    }
  }
  // The Manitoba–Ontario line (95.15° W, dashed) crosses the middle of the map; a degree east of
  // it, Ontario is land alone.
  await page.goto('/?w=&map=52,-95.15,7');
  await expect(map(page)).toHaveAttribute('data-basemap-detail', 'fine');
  await expect.poll(async () => (await basemapColours(page, 3, 8)).length).toBeGreaterThan(1);
  await page.screenshot({ path: 'test-results/screenshots/basemap-provinces.png' });
  await page.goto('/?w=&map=52,-94.15,7');
  await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
  await expect.poll(() => basemapColours(page, 3, 8)).toEqual([land]);
});

test('Back returns to the view on screen when a link was followed right after a zoom', async ({ page }) => {
  await page.goto('/?w=&map=39,-96,4');
  await expect(map(page)).toHaveAttribute('data-basemap', 'ready');
  // Zoomed in, and away to another page at once, before the view rested long enough to be written
  // (during the zoom's animation, or just after it: either way the view it went to is kept).
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.waitForTimeout(100);
  await page.getByRole('link', { name: 'Exceptions', exact: true }).click();
  await expect(page).toHaveURL(/\/exceptions/);
  await page.goBack();
  await expect(map(page)).toBeVisible();
  expect(new URL(page.url()).searchParams.get('map')).toMatch(/,5$/);
});
