import type { ParseIssue } from '@/contract/parse-issue';
import { parseLoadDetail } from '@/contract/parse-pull';
import { normalizeLoad } from '@/domain/normalize';
import { withOutlook } from '@/domain/outlook';
import { loadView, relativeIssues } from '@/server/track-cache';
import { wireStops } from '@/simulator/app';
import { generateFleet } from '@/simulator/fleet';
import { trackAt } from '@/simulator/track';

/** Simulated loads as the proxy serves them (outlooks and stops included), written out and read back. */
export function servedLoads(include: Parameters<typeof loadView>[2]): unknown[] {
  const startedAt = Date.parse('2026-11-22T12:00:00Z');
  const plans = generateFleet({ seed: 11, loads: 40, speed: 60, startedAt });
  // Ten minutes on a 60x clock: trips of some hours, stops reached, a few dark.
  const at = startedAt + 10 * 60_000;
  return plans.flatMap((plan, i) => {
    const t = trackAt(plan, at, { speed: 60, seed: 11, publicUrl: 'https://docs.example.com' });
    const last = t.pings.at(-1)?.item;
    const status = t.events.filter((e) => e.item.main).at(-1)?.item;
    const detail = {
      loadTrackExternalId: plan.externalId,
      ltExternalId: plan.externalId,
      locations: t.pings.map(({ item: { city: _c, point: _p, ...ping } }) => ping),
      events: t.events.map(({ item: { main: _m, ...e } }) => e),
      comments: t.comments.map((c) => c.item),
      documents: t.documents.map((d) => d.item),
      temperatures: t.readings.map((r) => r.item),
      stops: wireStops(plan, 60),
      ...(last ? { latestLocation: (({ city: _c, point: _p, ...p }) => p)(last) } : {}),
      ...(status ? { latestStatus: (({ id: _i, main: _m, ...e }) => e)(status) } : {}),
    };
    const issues: ParseIssue[] = [];
    const parsed = parseLoadDetail(detail, `details[${i}]`, issues);
    const load = parsed && normalizeLoad(parsed, 'external-id', `details[${i}]`, issues);
    if (!load) return [];
    const view = loadView(withOutlook(load, undefined), relativeIssues(load.issues), include);
    return [JSON.parse(JSON.stringify(view)) as unknown];
  });
}
