import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadView, ProxyPullAnswer } from '@/contract/load-view';
import type { Load } from '@/domain/model';
import type { DarkMode, LoadPlan } from '@/simulator/fleet';
import { manualClock, startStack, type Stack } from '@/testing/stack';

/**
 * Issue 36 parts 1 and 2 end to end: the simulator sends stops with appointments and phones that go
 * dark in each way; the proxy reckons each load's outlook from its whole track and sends it inside the
 * load's view, also to a board that pulls no pings.
 */
const clock = manualClock();
let stack: Stack;
const MIN = 60_000;

beforeAll(async () => {
  stack = await startStack({ loads: 160, now: clock.now });
});
afterAll(() => stack.close());

async function board(ids: string[]): Promise<Map<string, Load>> {
  const response = await stack.post('/api/pull/by-external-id', {
    ids,
    include: { locations: false, events: false, documents: false, comments: false, extras: false },
  });
  expect(response.status).toBe(200);
  const answer = ProxyPullAnswer.parse(await response.json());
  return new Map(answer.loads.map((l) => LoadView.parse(l)).map((l) => [l.id, l]));
}

const EXPECTED: Record<DarkMode, (load: Load) => void> = {
  moving: (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'moving' }),
  'at-pickup': (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'at-stop', stopOrder: 1 }),
  'at-delivery': (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'at-stop', stopOrder: 2 }),
  'never-started': (l) => expect(['never-started', 'notice']).toContain(l.outlook?.dark?.reason),
  'app-closed': (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'notice', noticeKind: 'app-closed' }),
  permission: (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'notice', noticeKind: 'permission' }),
  'phone-off': (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'notice', noticeKind: 'phone-off' }),
  intermittent: (l) => expect(l.outlook?.dark).toMatchObject({ reason: 'intermittent' }),
};

describe('each load outlook, reckoned by the proxy over the simulator', () => {
  it('names why each dark phone is dark, on a board that pulls no pings', async () => {
    const dark = stack.sim.fleet.filter((p): p is LoadPlan & { dark: DarkMode } => p.dark !== undefined);
    const modes = new Set(dark.map((p) => p.dark));
    // The fleet shows every way a phone goes dark.
    expect([...modes].sort()).toEqual(Object.keys(EXPECTED).sort());
    const loads = await board(dark.map((p) => String(p.externalId)));
    for (const plan of dark) {
      const load = loads.get(String(plan.externalId))!;
      expect(load.pings).toEqual([]);
      EXPECTED[plan.dark](load);
    }
  });

  it('judges upcoming stops on time, at risk or late against their appointments, and says when there is none', async () => {
    const ids = stack.sim.fleet.map((p) => String(p.externalId));
    const response = await stack.post('/api/pull/by-external-id', { ids });
    const loads = ProxyPullAnswer.parse(await response.json()).loads.map((l) => LoadView.parse(l));
    const statuses = new Set(loads.flatMap((l) => l.outlook?.stops.map((s) => s.status) ?? []));
    for (const status of ['on-time', 'at-risk', 'late', 'no-appointment', 'unknown'] as const)
      expect(statuses, status).toContain(status);
    // Each upcoming stop with a point and a basis has an ETA with its inputs.
    const upcoming = loads.flatMap(
      (l) => l.outlook?.stops.filter((s) => s.progress === 'upcoming' && s.eta !== undefined) ?? [],
    );
    expect(upcoming.length).toBeGreaterThan(20);
    for (const s of upcoming) {
      expect(s.etaInputs!.mph).toBeGreaterThanOrEqual(20);
      expect(s.etaInputs!.mph).toBeLessThanOrEqual(65);
    }
    // A board's answer carries what its line says: the next stop, without its place or reckoning,
    // with its arrival and free time for the detention clock.
    const onBoard = await board(ids);
    for (const load of loads) {
      const slim = onBoard.get(load.id)!.outlook;
      const next = load.outlook?.stops.find((s) => s.progress !== 'departed');
      expect(slim?.dark).toEqual(load.outlook?.dark);
      expect(slim?.stops ?? []).toEqual(
        next
          ? [
              {
                order: next.order,
                type: next.type,
                progress: next.progress,
                status: next.status,
                ...(next.lateMinutes === undefined ? {} : { lateMinutes: next.lateMinutes }),
                ...(next.appointment ? { appointment: next.appointment } : {}),
                ...(next.eta === undefined ? {} : { eta: next.eta }),
                ...(next.arrivedAt === undefined
                  ? {}
                  : { arrivedAt: next.arrivedAt, freeMinutes: next.freeMinutes }),
              },
            ]
          : [],
      );
    }
  });

  it('recomputes on each new ping: the ETA moves on with the track, and a pull after a cursor carries it', async () => {
    const rolling = stack.sim.fleet.find(
      (p) =>
        p.dark === undefined &&
        p.departAt < clock.now() &&
        p.departAt + (p.driveMinutes * MIN) / 60 > clock.now() + 30 * MIN,
    )!;
    const id = String(rolling.externalId);
    const first = await stack.post('/api/pull/by-external-id', { ids: [id] });
    let answer = ProxyPullAnswer.parse(await first.json());
    const before = LoadView.parse(answer.loads[0]).outlook!;
    const delivery = (o: typeof before) => o.stops.find((s) => s.type === 'delivery')!;
    let after = before;
    // Two minutes are two hours of the simulator's driving, unless the driver rests (ten minutes).
    for (
      let tries = 0;
      tries < 8 && delivery(after).etaInputs!.miles >= delivery(before).etaInputs!.miles;
      tries++
    ) {
      clock.advance(2 * MIN);
      const next = await stack.post('/api/pull/by-external-id', { ids: [id], since: answer.cursor });
      answer = ProxyPullAnswer.parse(await next.json());
      after = LoadView.parse(answer.loads[0]).outlook!;
      expect(after.asOf).toBeGreaterThan(before.asOf);
      expect(delivery(after).etaInputs!.from).toBeGreaterThan(delivery(before).etaInputs!.from);
    }
    expect(delivery(after).etaInputs!.miles).toBeLessThan(delivery(before).etaInputs!.miles);
  });
});

describe('the outlook of a seed', () => {
  it('is the same for the same seed and clock', async () => {
    const outlooks = async () => {
      const own = await startStack({ loads: 30, now: manualClock().now });
      try {
        const ids = own.sim.fleet.map((p) => String(p.externalId));
        const response = await own.post('/api/pull/by-external-id', { ids });
        return ProxyPullAnswer.parse(await response.json()).loads.map((l) => LoadView.parse(l).outlook);
      } finally {
        await own.close();
      }
    };
    const first = await outlooks();
    expect(first.filter((o) => o?.dark).length).toBeGreaterThan(0);
    expect(await outlooks()).toEqual(first);
  });
});
