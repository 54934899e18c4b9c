import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Load, Ping, StopOutlook } from '@/domain/model';
import { emptyLoad, testTime } from '@/testing/loads';
import { DetentionCsvButton } from './detention-csv-button';
import { csvField, detentionCsv } from './detention-csv';

const MIN = 60_000;
const ARRIVED = Date.parse('2026-11-24T18:05:00Z');
/** The dock; a degree of longitude on the equator is 111.2 km. */
const DOCK = { lat: 0, lon: -95 };
const east = (m: number) => DOCK.lon + m / 111_195;
const ping = (instant: number, metersEast: number, accuracy: number | null): Ping => ({
  key: String(instant),
  instant,
  time: testTime(instant),
  lat: 0,
  lon: east(metersEast),
  accuracy,
});

const receiver: StopOutlook = {
  order: 2,
  type: 'delivery',
  name: 'Acme "North" DC, Dock 4',
  place: { city: 'Dallas', state: 'TX' },
  lat: DOCK.lat,
  lon: DOCK.lon,
  appointment: { local: '11/24/2026 12:00', offsetHours: -6, instant: Date.parse('2026-11-24T18:00:00Z') },
  progress: 'departed',
  arrivedAt: ARRIVED,
  arrivedBy: 'event',
  departedAt: ARRIVED + 200 * MIN,
  departedBy: 'pings',
  freeMinutes: 120,
  status: 'late',
  lateMinutes: 5,
};

function load(stops: StopOutlook[], pings: Ping[]): Load {
  return emptyLoad('700110', 'external-id', {
    pings,
    outlook: { asOf: 0, radiusMeters: 300, stops },
  });
}

/** Clicks the button and returns the file it handed the browser. */
async function download(l: Load): Promise<{ name: string; text: string }> {
  let blob: Blob | undefined;
  let name = '';
  URL.createObjectURL = vi.fn((b: Blob) => ((blob = b), 'blob:test'));
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    name = this.download;
  });
  render(<DetentionCsvButton load={l} />);
  await userEvent.click(screen.getByRole('button', { name: 'Download detention evidence (CSV)' }));
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob!);
  });
  return { name, text };
}

afterEach(() => vi.restoreAllMocks());

describe("the load page's detention evidence (CSV)", () => {
  it("lists arrival, departure, each ping in and out with its accuracy, and the dwell, in the stop's zone and UTC", async () => {
    const pings = [
      ping(ARRIVED - 10 * MIN, 8_000, 12),
      ping(ARRIVED + 5 * MIN, 40, 8),
      // Known only to 250 m, 420 m out: inside the widened fence.
      ping(ARRIVED + 60 * MIN, 420, 250),
      ping(ARRIVED + 120 * MIN, 3_000, 2_000),
      ping(ARRIVED + 200 * MIN, 6_000, 15),
      ping(ARRIVED + 210 * MIN, 15_000, 15),
    ];
    const { name, text } = await download(load([receiver], pings));
    expect(name).toBe('detention-700110.csv');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'load,stop,stop_type,facility,city,what,source,stop_time,stop_zone,utc_time,lat,lon,accuracy_m,distance_m,fence_m,inside,minutes',
    );
    const stop = '700110,2,delivery,"Acme ""North"" DC, Dock 4","Dallas, TX"';
    expect(lines[1]).toBe(
      `${stop},arrival,status event,2026-11-24 12:05:00,GMT-6,2026-11-24T18:05:00Z,,,,,,,`,
    );
    expect(lines[2]).toBe(`${stop},departure,pings,2026-11-24 15:25:00,GMT-6,2026-11-24T21:25:00Z,,,,,,,`);
    const rows = lines.slice(3, 9).map((l) => l.slice(stop.length + 1).split(','));
    // what, source, stop time, zone, UTC, lat, lon, accuracy, distance, fence, inside
    expect(rows.map((r) => [r[0], r[2], r[4], r[7], r[8], r[9], r[10]])).toEqual([
      ['ping', '2026-11-24 11:55:00', '2026-11-24T17:55:00Z', '12', '8000', '312', 'no'],
      ['ping', '2026-11-24 12:10:00', '2026-11-24T18:10:00Z', '8', '40', '308', 'yes'],
      ['ping', '2026-11-24 13:05:00', '2026-11-24T19:05:00Z', '250', '420', '550', 'yes'],
      ['ping', '2026-11-24 14:05:00', '2026-11-24T20:05:00Z', '2000', '', '', 'unsure fix (not counted)'],
      ['ping', '2026-11-24 15:25:00', '2026-11-24T21:25:00Z', '15', '6000', '315', 'no'],
      ['time inside', '', '', '', '', '', ''],
    ]);
    expect(lines.slice(8)).toEqual([
      `${stop},time inside,,,,,,,,,,,200`,
      `${stop},free time,,,,,,,,,,,120`,
      `${stop},detention,,,,,,,,,,,80`,
      '',
    ]);
  });

  it('says the zone is unknown when the stop sent no offset, and that the clock still runs', async () => {
    const now = Date.now();
    const waiting: StopOutlook = {
      ...receiver,
      appointment: { local: '11/24/2026 12:00' },
      progress: 'arrived',
      arrivedAt: now - 30 * MIN,
      arrivedBy: 'pings',
      departedAt: undefined,
      departedBy: undefined,
    };
    delete waiting.departedAt;
    delete waiting.departedBy;
    const { text } = await download(load([waiting], [ping(now - 30 * MIN, 10, 5)]));
    const lines = text.split('\r\n');
    expect(lines[1]).toMatch(/,arrival,pings,,unknown,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,/);
    expect(lines).toContainEqual(expect.stringMatching(/,detention,still there at download,.*,0$/));
  });

  it('gives a stay whose phone went dark inside the fence as open: departure unknown, the floor from the pings', () => {
    const waiting: StopOutlook = { ...receiver, progress: 'arrived', arrivedBy: 'pings' };
    delete waiting.departedAt;
    delete waiting.departedBy;
    const pings = [
      ping(ARRIVED - 10 * MIN, 8_000, 12),
      ping(ARRIVED, 40, 8),
      ping(ARRIVED + 40 * MIN, 60, 8),
    ];
    const l = emptyLoad('700110', 'external-id', {
      pings,
      latestLocation: { ...pings[2]!, place: {} },
      outlook: {
        asOf: ARRIVED + 40 * MIN,
        radiusMeters: 300,
        stops: [waiting],
        dark: { reason: 'at-stop', at: ARRIVED + 40 * MIN, stopOrder: 2, meters: 60 },
      },
    });
    const now = ARRIVED + 5 * 60 * MIN;
    const tail = detentionCsv(l, now, true).split('\r\n').slice(-8);
    const stop = '700110,2,delivery,"Acme ""North"" DC, Dock 4","Dallas, TX"';
    expect(tail).toEqual([
      `${stop},departure,unknown: phone dark at the stop,,,,,,,,,,`,
      `${stop},last ping inside,,2026-11-24 12:45:00,GMT-6,2026-11-24T18:45:00Z,,,,60,,,`,
      `${stop},time inside,"open: no departure known, counted to download",,,,,,,,,,300`,
      `${stop},time inside at least,to the last ping inside,,,,,,,,,,40`,
      `${stop},free time,,,,,,,,,,,120`,
      `${stop},detention,"open: no departure known, counted to download",,,,,,,,,,180`,
      `${stop},detention at least,to the last ping inside,,,,,,,,,,0`,
      '',
    ]);
    // While the phone still reports, the same stay is an ordinary one.
    expect(detentionCsv(l, now, false)).not.toContain('unknown: phone dark');
  });

  it('is offered only once a stop was arrived at', () => {
    render(
      <DetentionCsvButton
        load={load([{ ...receiver, progress: 'upcoming', arrivedAt: undefined } as StopOutlook], [])}
      />,
    );
    expect(screen.getByRole('button', { name: 'Download detention evidence (CSV)' })).toBeDisabled();
    expect(screen.getByText('No stop arrived at yet: no evidence to give')).toBeInTheDocument();
  });

  it('keeps a name a spreadsheet would run as a formula from running', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('-5 Dock')).toBe("'-5 Dock");
    expect(csvField(-95.5)).toBe('-95.5');
  });
});
