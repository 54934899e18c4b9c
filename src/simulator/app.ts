import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { LoadDetailWire } from '@/contract/load-detail';
import { documentSvg } from './documents';
import { createFaultInjector, truncateJson, type FaultInjector, type FaultPlan } from './faults';
import { instantOf, tripClock, tripNumber, type LoadPlan } from './fleet';
import { appointmentText, joinTracks, stamps, trackAt, type Timed, type TrackOptions } from './track';
import { createWebhookOperation } from './webhooks';

export interface SimulatorOptions extends TrackOptions {
  partnerId: number;
  accountId: string;
  fleet: LoadPlan[];
  /** The clock; tests move it by hand. */
  now: () => number;
  /** HS256 secret that webhook bearer tokens are verified with. */
  jwtSecret: string;
  /** Fault knobs of the pull operations; none when absent. */
  faults?: FaultInjector;
  /** Told of every pull call as it arrives (tests count the calls of several instances). */
  onPull?: () => void;
}

/** Under @hono/node-server the raw socket is reachable (a reset fault needs it); absent in app.request(). */
type SimulatorEnv = { Bindings: Partial<HttpBindings> };

/**
 * What the pull operations read of a request. Looser than what we send (contract/pull-request.ts):
 * a server accepts numbers for ids and ignores fields it does not know, as the real one does.
 */
const idList = z.array(z.union([z.string(), z.number()]).transform(String));
const PullBody = z.object({
  partnerId: z.unknown().optional(),
  accountId: z.unknown().optional(),
  loadTrackExternalIds: idList.optional(),
  loadNumbers: idList.optional(),
  sendNewData: z.enum(['yes', 'no']).optional(),
  includeLocations: z.boolean().optional(),
  includeEvents: z.boolean().optional(),
  includeDocuments: z.boolean().optional(),
  includeComments: z.boolean().optional(),
});
type PullBody = z.infer<typeof PullBody>;

type Operation = 'external-id' | 'load-number';

/** The service's timestamp of its own answers: `MM/DD/YYYY HH:mm:ss UTC`. */
const serverTime = (now: number) => stamps(now, 'UTC').timestampUTC;

/** 400 body of the simulator (the interface shows none): the 7.1 shape with the server time. */
function badRequest(message: string, now: number): Response {
  return Response.json(
    { status: false, message: `Malformed request: ${message}`, errorCode: 400, timeStamp: serverTime(now) },
    { status: 400 },
  );
}

/** The 7.1 shape for the simulator's other pull failures (429, 500), which the interface leaves open. */
function pullFailure(status: number, message: string, now: number, headers?: Record<string, string>) {
  return Response.json(
    { status: false, message, errorCode: status, timeStamp: serverTime(now) },
    { status, headers },
  );
}

/**
 * A trip's stops as the service sends them (issue 36): order, type, facility, place, point and the
 * appointment in the stop's local time with its offset from GMT; `null` where a stop has none. A
 * careless sender (`odd`) writes numbers as text and text as numbers; some write no offset at all.
 */
export function wireStops(plan: LoadPlan, speed: number): Record<string, unknown>[] {
  const odd = plan.stopStyle === 'odd';
  return plan.stops.map((s) => {
    const appointment =
      s.appointmentMinute === undefined
        ? undefined
        : appointmentText(instantOf(plan, s.appointmentMinute, speed), s.city.zone);
    return {
      stopExternalId: s.stopExternalId,
      orderNumber: odd ? String(s.stopOrderNumber) : s.stopOrderNumber,
      stopType: s.kind === 'pickup' ? 'PICKUP' : 'DELIVERY',
      locationName: s.locationName,
      city: s.city.name,
      state: s.city.state,
      country: s.city.country,
      zipcode: odd ? Number(s.zipcode) : s.zipcode,
      lat: odd ? s.city.lat.toFixed(4) : s.city.lat,
      lon: odd ? s.city.lon.toFixed(4) : s.city.lon,
      datetime: appointment?.datetime ?? null,
      ...(plan.stopStyle === 'no-offset'
        ? {}
        : { stopGMTDiff: appointment ? appointment.stopGMTDiff : odd ? null : '' }),
    };
  });
}

export function createSimulatorApp(o: SimulatorOptions): Hono<SimulatorEnv> {
  const app = new Hono<SimulatorEnv>();
  const faults = o.faults ?? createFaultInjector(o.seed);
  const createWebhook = createWebhookOperation({ jwtSecret: o.jwtSecret, now: o.now });
  const byExternalId = new Map(o.fleet.map((p) => [String(p.externalId), p]));
  const tripsAt = tripClock(o);
  const byLoadNumber = new Map(o.fleet.map((p) => [p.loadNumber, p]));
  /** `sendNewData` cursors: partner and load → instant of that partner's previous request. */
  const cursors = new Map<string, number>();

  function detail(slot: LoadPlan, op: Operation, body: PullBody, now: number): LoadDetailWire {
    // A load that delivered is dispatched again, under the same ids (fleet.ts): its track is all of
    // its trips so far, in time order; its latest location, status and stops are its trip's now.
    const trips = tripsAt(slot, now);
    const plan = trips[trips.length - 1] as LoadPlan;
    const key = `${String(body.partnerId)}:${plan.index}`;
    const since = body.sendNewData === 'yes' ? (cursors.get(key) ?? -Infinity) : -Infinity;
    cursors.set(key, now);
    const track =
      trips.length === 1
        ? trackAt(plan, now, o, since)
        : joinTracks(trips.map((t) => trackAt(t, now, o, since)));
    const fresh = <T>(list: Timed<T>[]) => list.filter((t) => t.at > since).map((t) => t.item);
    const lastPing = track.pings[track.pings.length - 1];
    const mainEvents = track.events.filter((e) => e.item.main);
    const lastStatus = mainEvents[mainEvents.length - 1]?.item;
    const lastReading = track.readings[track.readings.length - 1]?.item;
    const out: LoadDetailWire =
      op === 'external-id'
        ? { loadTrackExternalId: plan.externalId, ltExternalId: plan.externalId }
        : { loadNumber: plan.loadNumber, ltExternalId: plan.externalId };
    if (lastPing) {
      const { city, lat, lon, accuracy, driver } = lastPing.item;
      out.latestLocation = {
        lat,
        lon,
        accuracy,
        ...stamps(lastPing.at, city.zone),
        city: city.name,
        state: city.state,
        country: city.country,
        driver,
      };
    }
    if (lastStatus) {
      const { id: _id, main: _main, ...status } = lastStatus;
      out.latestStatus = status;
    }
    if (op === 'external-id' && lastReading) out.latestTemperature = lastReading;
    if (body.includeLocations !== false) {
      out.locations = fresh(track.pings).map(({ city: _c, point: _p, ...ping }) =>
        op === 'load-number' ? { ...ping, driverPhoneNumber: plan.driver.phoneNumber } : ping,
      );
    }
    if (op === 'external-id' && plan.reefer) out.temperatures = fresh(track.readings);
    if (body.includeEvents !== false) out.events = fresh(track.events).map(({ main: _m, ...e }) => e);
    if (body.includeComments !== false) out.comments = fresh(track.comments);
    if (body.includeDocuments !== false) out.documents = fresh(track.documents);
    // The real service sends undocumented extras such as stops; so does the simulator.
    (out as Record<string, unknown>).stops = wireStops(plan, o.speed);
    return out;
  }

  async function answerPull(op: Operation, request: Request): Promise<Response> {
    const now = o.now();
    let json: unknown;
    try {
      json = await request.json();
    } catch {
      return badRequest('the body is not valid JSON', now);
    }
    const parsed = PullBody.safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return badRequest(where, now);
    }
    const body = parsed.data;
    if (body.partnerId !== o.partnerId || body.accountId !== o.accountId) {
      return Response.json({ status: false, message: 'Invalid account', errorCode: 1001 }, { status: 401 });
    }
    // By load number, ids are read from `loadNumbers` and, as the schema's required list names it,
    // from `loadTrackExternalIds` too (README, "Choices").
    const ids =
      op === 'external-id'
        ? body.loadTrackExternalIds
        : [...(body.loadNumbers ?? []), ...(body.loadTrackExternalIds ?? [])];
    if (!ids || (op === 'load-number' && !body.loadNumbers && !body.loadTrackExternalIds)) {
      const field = op === 'external-id' ? 'loadTrackExternalIds' : 'loadNumbers';
      return badRequest(`${field} is required`, now);
    }
    const index = op === 'external-id' ? byExternalId : byLoadNumber;
    const seen = new Set<LoadPlan>();
    const details: LoadDetailWire[] = [];
    for (const id of ids) {
      const plan = index.get(id.trim());
      if (!plan || seen.has(plan)) continue;
      seen.add(plan);
      details.push(detail(plan, op, body, now));
    }
    return Response.json({ status: true, timeStamp: serverTime(now), details });
  }

  /** A pull with this request's faults applied around it (faults.ts). */
  async function pull(op: Operation, c: Context<SimulatorEnv>): Promise<Response> {
    o.onPull?.();
    const plan: FaultPlan = faults.draw();
    const request = c.req.raw;
    if (plan.latencyMs > 0) {
      try {
        await sleep(plan.latencyMs, undefined, { signal: request.signal });
      } catch {
        // The client hung up while we waited: nothing to answer, and the cursors stay put.
        return new Response(null, { status: 499 });
      }
    }
    if (plan.before === 'too-many-requests') {
      const seconds = String(faults.settings.retryAfterSeconds);
      return pullFailure(429, 'Too many requests (simulated fault)', o.now(), { 'Retry-After': seconds });
    }
    if (plan.before === 'error') return pullFailure(500, 'Internal server error (simulated fault)', o.now());
    if (plan.before === 'invalid-json') {
      // What a gateway in front of a service sends when the service behind it is in trouble.
      return new Response('<html><body><h1>502 Bad Gateway</h1>(simulated fault)</body></html>', {
        status: 200,
        headers: { 'Content-Type': 'text/html' },
      });
    }
    if (plan.before === 'status-false') {
      // The real service reports some failures in a 200 whose envelope says so.
      return Response.json({
        status: false,
        message: 'Unable to process the request (simulated fault)',
        errorCode: 'E-SIM',
        timeStamp: serverTime(o.now()),
        details: [],
      });
    }
    const response = await answerPull(op, request);
    if (response.status !== 200 || plan.after === undefined) return response;
    if (plan.after === 'slow') {
      // The cursors have moved; the answer comes, if the client still waits, after its deadline.
      try {
        await sleep(faults.settings.slowMs, undefined, { signal: request.signal });
      } catch {
        return new Response(null, { status: 499 });
      }
      return response;
    }
    if (plan.after === 'oversize') {
      // The cursors have moved; a valid start of an answer, then blanks until the client hangs up.
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('{"status":true,"details":[')),
        pull: (controller) => {
          if (request.signal.aborted || sent >= 2 ** 30) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    if (plan.after === 'reset') {
      const socket = c.env?.incoming?.socket;
      if (!socket) throw new Error('a reset fault needs the simulator to run under @hono/node-server');
      // The cursors have moved; the answer is lost with the connection.
      socket.destroy();
      return new Response(null, { status: 499 });
    }
    const text = truncateJson(await response.text(), plan.cut);
    return new Response(text, { status: 200, headers: { 'Content-Type': 'application/json' } });
  }

  app.post('/loadtrackservice/getLoadTrackDetailsServiceV2', (c) => pull('external-id', c));
  app.post('/loadtrackservice/getLoadTrackDetailsServiceByLoadNumber', (c) => pull('load-number', c));
  app.post('/api/v1/webhooks', (c) => createWebhook(c.req.raw));

  // Beside the interface: the fleet list (each load's trip now) and the document images.
  app.get('/_sim/fleet', (c) =>
    c.json({
      loads: o.fleet
        .map((slot) => tripsAt(slot, o.now()).at(-1) as LoadPlan)
        .map((p) => ({
          externalId: String(p.externalId),
          trip: p.trip,
          loadNumber: p.loadNumber,
          reefer: p.reefer,
          driver: p.driver.name,
          from: `${p.stops[0]?.city.name}, ${p.stops[0]?.city.state}`,
          to: `${p.stops[p.stops.length - 1]?.city.name}, ${p.stops[p.stops.length - 1]?.city.state}`,
        })),
    }),
  );
  app.get('/_sim/documents/:externalId/:file', (c) => {
    const slot = byExternalId.get(c.req.param('externalId'));
    // A later trip's documents say which trip (`?trip=3`): drawn with that trip's stops.
    const trip = Number(c.req.query('trip') ?? 0);
    const plan = slot && Number.isInteger(trip) && trip >= 0 ? tripNumber(slot, trip, o) : undefined;
    const n = Number(c.req.param('file').replace(/\.svg$/, ''));
    if (!plan || !Number.isInteger(n) || n < 1 || n > 4 + (plan.bulk?.documents ?? 0)) return c.notFound();
    return c.body(documentSvg(plan, n), 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=3600',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
  return app;
}
