import { parsePullAnswer } from '@/contract/parse-pull';
import type { Load } from '@/domain/model';
import { normalizeLoad } from '@/domain/normalize';
import { wireStops } from '@/simulator/app';
import type { generateFleet } from '@/simulator/fleet';
import { trackAt } from '@/simulator/track';

type Plans = ReturnType<typeof generateFleet>;

export interface SimulatedAnswerOptions {
  speed: number;
  seed: number;
  /** Only what came after this instant, as a `sendNewData: yes` pull brings it; everything when absent. */
  after?: number;
  /** Only each load's last so many pings. */
  lastPings?: number;
  /** With each trip's stops, as the service sends them beside its schema, and its latest location and status. */
  stops?: boolean;
}

/** The loads' details at `at` on the wire, as the simulator would answer a pull: one generator for the benches and the tests. */
export function simulatedDetails(plans: Plans, at: number, o: SimulatedAnswerOptions) {
  return plans.map((plan) => {
    const t = trackAt(
      plan,
      at,
      { speed: o.speed, seed: o.seed, publicUrl: 'https://docs.example.com' },
      o.after,
    );
    const pings = o.lastPings === undefined ? t.pings : t.pings.slice(-o.lastPings);
    const last = t.pings[t.pings.length - 1]?.item;
    const status = t.events.filter((e) => e.item.main).at(-1)?.item;
    // The detail's head as the simulator writes it (its app.ts), for the outlook and staleness.
    const head = o.stops
      ? {
          stops: wireStops(plan, o.speed),
          ...(last ? { latestLocation: { ...(({ city: _c, point: _p, ...p }) => p)(last) } } : {}),
          ...(status ? { latestStatus: (({ id: _i, main: _m, ...e }) => e)(status) } : {}),
        }
      : {};
    return {
      loadTrackExternalId: plan.externalId,
      ltExternalId: plan.externalId,
      locations: pings.map(({ item: { city: _c, point: _p, ...ping } }) => ping),
      events: t.events.map(({ item: { main: _m, ...e } }) => e),
      comments: t.comments.map((c) => c.item),
      documents: t.documents.map((d) => d.item),
      temperatures: t.readings.map((r) => r.item),
      ...head,
    };
  });
}

/** The same details read and normalized as the proxy does: the loads it would hold. */
export function simulatedLoads(plans: Plans, at: number, o: SimulatedAnswerOptions): Load[] {
  const details = simulatedDetails(plans, at, o);
  const parsed = parsePullAnswer({ status: true, timeStamp: '11/22/2026 13:00:00 UTC', details });
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.data.details.flatMap(
    (d, i) => normalizeLoad(d, 'external-id', `details[${i}]`, parsed.data.detailIssues[i]) ?? [],
  );
}
