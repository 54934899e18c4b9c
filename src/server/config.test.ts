import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ClientConfig } from '@/contract/proxy-api';
import { startStack } from '@/testing/stack';
import {
  tracksModeOf,
  ConfigError,
  OSM_ATTRIBUTION,
  OSM_TILE_URL,
  configWarnings,
  outlookOptionsOf,
  parseEnv,
  readProcessEnv,
  startRefusal,
  tileAttributionOf,
} from './config';

describe('parseEnv', () => {
  it('gives the documented defaults', () => {
    expect(parseEnv({})).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 8080,
      REFRESH_SECONDS: 30,
      MAX_IDS: 500,
      UPSTREAM_MAX_IDS: 100,
      UPSTREAM_TIMEOUT_MS: 15000,
      SIM_LOADS: 40,
      SIM_SPEED: 60,
    });
    expect(parseEnv({}).UPSTREAM_BASE_URL).toBeUndefined();
    // Unset: the embedded simulator takes a free port.
    expect(parseEnv({}).SIM_PORT).toBeUndefined();
    expect(parseEnv({ SIM_PORT: '8081' }).SIM_PORT).toBe(8081);
  });

  it('stops with a message that names each bad variable, without echoing secrets', () => {
    const attempt = () =>
      parseEnv({ PORT: 'eighty', UPSTREAM_BASE_URL: 'ftp://x', TILE_URL: 'tiles', ACCOUNT_ID: 'top-secret' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT/);
      expect(message).toMatch(/UPSTREAM_BASE_URL/);
      expect(message).toMatch(/TILE_URL/);
      expect(message).not.toContain('top-secret');
    }
  });

  it('refuses a number setting with its range and what was given, never quoting a credential', () => {
    const message = (source: Record<string, string>) => {
      try {
        parseEnv(source);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(message({ PORT: 'abc' })).toBe(
      'Invalid configuration:\n  PORT: must be a whole number from 0 to 65535 (got "abc")',
    );
    expect(message({ REFRESH_SECONDS: '1.5', SESSION_IDLE_MINUTES: '1' })).toBe(
      'Invalid configuration:\n' +
        '  REFRESH_SECONDS: must be a whole number from 2 to 3600 (got "1.5")\n' +
        '  SESSION_IDLE_MINUTES: must be a whole number from 5 to 10080 (got "1")',
    );
    expect(message({ ETA_ROAD_FACTOR: 'fast' })).toBe(
      'Invalid configuration:\n  ETA_ROAD_FACTOR: must be a number from 1 to 3 (got "fast")',
    );
    // The partner id is half of the pull credentials: named, its value never shown.
    expect(message({ PARTNER_ID: 'p-4242-secret' })).toBe(
      'Invalid configuration:\n  PARTNER_ID: must be a whole number from 0 to 9007199254740991 ' +
        '(its value is not shown: it is a credential)',
    );
    expect(parseEnv({ PORT: '8090', ETA_ROAD_FACTOR: '1.5', PARTNER_ID: '12' })).toMatchObject({
      PORT: 8090,
      ETA_ROAD_FACTOR: 1.5,
      PARTNER_ID: 12,
    });
  });

  it('reads where the store is: the embedded one in ./data unless DATABASE_URL names a server', () => {
    expect(parseEnv({}).DATA_DIR).toBe('./data');
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
    const url = 'postgres://haulview:pw@db.example.com:5432/haulview';
    expect(parseEnv({ DATABASE_URL: url, DATA_DIR: '/var/lib/haulview' })).toMatchObject({
      DATABASE_URL: url,
      DATA_DIR: '/var/lib/haulview',
    });
    expect(parseEnv({ DATABASE_URL: 'postgresql://db/haulview' }).DATABASE_URL).toBe(
      'postgresql://db/haulview',
    );
    const attempt = () => parseEnv({ DATABASE_URL: 'mysql://root:hunter2@db/haulview' });
    expect(attempt).toThrow(/^Invalid configuration:\n {2}DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  // Whole-number settings: the default, values taken as given, and values refused with the variable named.
  it.each([
    {
      what: 'how long the audit log is kept: a year by default, whole days from 1 to 3650',
      name: 'RETENTION_DAYS',
      default: 365,
      good: [30, 3650],
      bad: ['0', '-5', '3651', '1.5', 'forever'],
    },
    {
      what: 'the puller’s lease: 15 s by default, whole seconds from 3 to 600',
      name: 'LEASE_SECONDS',
      default: 15,
      good: [30],
      bad: ['0', '2', '601', '1.5', 'soon'],
    },
    {
      what: 'how long a socket may idle: 120 s by default, 0 for never, whole seconds up to a day',
      name: 'SOCKET_IDLE_SECONDS',
      default: 120,
      good: [0, 30],
      bad: ['-1', '86401', '1.5', 'soon'],
    },
    {
      what: 'the answer cache’s size: 16 MiB by default, 0 for none, whole MiB',
      name: 'ANSWER_CACHE_MB',
      default: 16,
      good: [0, 512],
      bad: ['-1', '65537', '1.5', '64MB', 'lots'],
    },
  ] as const)('reads $what', ({ name, default: byDefault, good, bad }) => {
    expect(parseEnv({})[name]).toBe(byDefault);
    for (const value of good) expect(parseEnv({ [name]: String(value) })[name]).toBe(value);
    for (const value of bad)
      expect(() => parseEnv({ [name]: value }), value).toThrow(
        new RegExp(`^Invalid configuration:\\n {2}${name}: `),
      );
  });

  it('keeps tracks in the store with DATABASE_URL, in memory without; TRACKS says otherwise', () => {
    const db = 'postgres://haulview@db.example.com:5432/haulview';
    expect(tracksModeOf(parseEnv({}))).toBe('memory');
    expect(tracksModeOf(parseEnv({ DATABASE_URL: db }))).toBe('store');
    expect(tracksModeOf(parseEnv({ DATABASE_URL: db, TRACKS: 'memory' }))).toBe('memory');
    expect(tracksModeOf(parseEnv({ TRACKS: 'store' }))).toBe('store');
    expect(() => parseEnv({ TRACKS: 'postgres' })).toThrow(/TRACKS: must be memory or store/);
    expect(parseEnv({}).WATCH_MINUTES).toBe(10);
    expect(parseEnv({}).PULLER_MAX_LOADS).toBe(20_000);
    expect(parseEnv({ PULLER_MAX_LOADS: '50000' }).PULLER_MAX_LOADS).toBe(50_000);
    for (const bad of ['0', '1000001', '1.5', 'many'])
      expect(() => parseEnv({ PULLER_MAX_LOADS: bad }), bad).toThrow(
        /^Invalid configuration:\n {2}PULLER_MAX_LOADS: /,
      );
    expect(() => parseEnv({ WATCH_MINUTES: '0' })).toThrow(/WATCH_MINUTES/);
  });

  it('reads the long track knob: off by default, 0 or at least 2 pings', () => {
    expect(parseEnv({}).SIM_LONG_TRACK_PINGS).toBe(0);
    expect(parseEnv({ SIM_LONG_TRACK_PINGS: '20000' }).SIM_LONG_TRACK_PINGS).toBe(20_000);
    expect(() => parseEnv({ SIM_LONG_TRACK_PINGS: '1' })).toThrow(/SIM_LONG_TRACK_PINGS/);
    expect(() => parseEnv({ SIM_LONG_TRACK_PINGS: '-5' })).toThrow(/SIM_LONG_TRACK_PINGS/);
  });

  it('requires the partner credentials when a real upstream is configured', () => {
    expect(() => parseEnv({ UPSTREAM_BASE_URL: 'https://tracking.example.com' })).toThrow(
      /PARTNER_ID[\s\S]*ACCOUNT_ID/,
    );
    expect(
      parseEnv({ UPSTREAM_BASE_URL: 'https://tracking.example.com/', PARTNER_ID: '12', ACCOUNT_ID: 'enc' }),
    ).toMatchObject({ UPSTREAM_BASE_URL: 'https://tracking.example.com', PARTNER_ID: 12 });
  });

  it('reads the timeline’s notice rules: texts separated by |, the built-in list kept unless told', () => {
    expect(parseEnv({})).toMatchObject({ NOISE_RULES_BUILT_IN: true });
    expect(parseEnv({}).NOISE_RULES).toBeUndefined();
    expect(
      parseEnv({
        NOISE_RULES: ' Geofence entered | Driver, app opened ',
        NOISE_RULES_WITHOUT_CODE: 'ping',
        NOISE_RULES_BUILT_IN: 'false',
      }),
    ).toMatchObject({
      NOISE_RULES: ['Geofence entered', 'Driver, app opened'],
      NOISE_RULES_WITHOUT_CODE: ['ping'],
      NOISE_RULES_BUILT_IN: false,
    });
    // An empty text would hide every event; a word that is not a yes or no is not guessed at.
    expect(() => parseEnv({ NOISE_RULES: 'geofence||opened' })).toThrow(/NOISE_RULES: .*separated by \|/);
    expect(() => parseEnv({ NOISE_RULES_WITHOUT_CODE: 'x'.repeat(101) })).toThrow(/NOISE_RULES_WITHOUT_CODE/);
    expect(() => parseEnv({ NOISE_RULES: Array(101).fill('a').join('|') })).toThrow(/NOISE_RULES: may hold/);
    expect(() => parseEnv({ NOISE_RULES_BUILT_IN: 'maybe' })).toThrow(
      /NOISE_RULES_BUILT_IN: must be true or false/,
    );
  });

  describe('the tiles’ credit line (TILE_ATTRIBUTION)', () => {
    const COMPANY_TILES = 'https://tiles.acme.example/{z}/{x}/{y}.png';
    const attributionOf = (env: Record<string, string>) => tileAttributionOf(parseEnv(env));

    it('defaults to OpenStreetMap’s for its tiles, to none without tiles or for other tiles', () => {
      expect(attributionOf({})).toBe(OSM_ATTRIBUTION);
      expect(attributionOf({ TILE_URL: OSM_TILE_URL })).toBe(OSM_ATTRIBUTION);
      expect(attributionOf({ TILE_URL: 'none' })).toBe('');
      expect(attributionOf({ TILE_URL: COMPANY_TILES })).toBe('');
      // No tiles, nothing to credit, whatever was set.
      expect(attributionOf({ TILE_URL: 'none', TILE_ATTRIBUTION: 'Acme' })).toBe('');
    });

    it('takes the operator’s text and links, as safe HTML; none means no credit line', () => {
      expect(attributionOf({ TILE_URL: COMPANY_TILES, TILE_ATTRIBUTION: ' Tiles © Acme ' })).toBe(
        'Tiles © Acme',
      );
      expect(
        attributionOf({
          TILE_URL: COMPANY_TILES,
          TILE_ATTRIBUTION:
            'Maps &copy; <a href="https://acme.example/maps?a=1&b=2">Acme & Sons</a>, data <a href="https://www.openstreetmap.org/copyright" target="_blank">OSM</a> "contributors"',
        }),
      ).toBe(
        'Maps &copy; <a href="https://acme.example/maps?a=1&amp;b=2">Acme &amp; Sons</a>, data ' +
          '<a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">OSM</a>' +
          ' &quot;contributors&quot;',
      );
      // It overrides OpenStreetMap's too, and `none` silences it on purpose.
      expect(attributionOf({ TILE_ATTRIBUTION: 'OSM, via Acme' })).toBe('OSM, via Acme');
      expect(attributionOf({ TILE_URL: COMPANY_TILES, TILE_ATTRIBUTION: 'none' })).toBe('');
    });

    it.each([
      ['a tag other than a link', '<img src=x onerror=alert(1)>'],
      ['a script', 'Acme<script>alert(1)</script>'],
      ['a script scheme', '<a href="javascript:alert(1)">Acme</a>'],
      ['a script scheme that looks like a URL', '<a href="javascript://acme.example/%0Aalert(1)">Acme</a>'],
      ['a link without a scheme', '<a href="//acme.example">Acme</a>'],
      ['an event handler', '<a href="https://acme.example" onclick="alert(1)">Acme</a>'],
      ['another target', '<a href="https://acme.example" target="top">Acme</a>'],
      ['a tag inside a link', '<a href="https://acme.example"><b>Acme</b></a>'],
      ['an unclosed link', '<a href="https://acme.example">Acme'],
      ['a stray bracket', 'Acme > OSM'],
      ['a blank', '   '],
    ])('stops start-up on %s, naming the variable without echoing it', (_, value) => {
      expect(() => parseEnv({ TILE_URL: COMPANY_TILES, TILE_ATTRIBUTION: value })).toThrow(
        /TILE_ATTRIBUTION: must/,
      );
      try {
        parseEnv({ TILE_ATTRIBUTION: value });
      } catch (error) {
        if (value.trim()) expect((error as Error).message).not.toContain(value.trim());
      }
    });

    it('warns in one line about other tiles without a credit line, never showing the tile URL', () => {
      const keyed =
        'https://user:pw@k-7f3a.tiles.acme.example/v4/tok-9d2e/{z}/{x}/{y}.png?api_key=SECRET-KEY-123&s=9';
      const warnings = configWarnings(parseEnv({ TILE_URL: keyed }));
      expect(warnings).toHaveLength(1);
      const [warning = ''] = warnings;
      expect(warning).toMatch(/TILE_ATTRIBUTION/);
      expect(warning).not.toMatch(/\n/);
      for (const part of [
        keyed,
        '?api_key=SECRET-KEY-123&s=9',
        'SECRET-KEY-123',
        'api_key',
        'k-7f3a',
        'acme',
        'tok-9d2e',
        'pw',
      ])
        expect(warning).not.toContain(part);
      expect(configWarnings(parseEnv({}))).toEqual([]);
      expect(configWarnings(parseEnv({ TILE_URL: 'none' }))).toEqual([]);
      expect(configWarnings(parseEnv({ TILE_URL: keyed, TILE_ATTRIBUTION: 'Acme' }))).toEqual([]);
      expect(configWarnings(parseEnv({ TILE_URL: keyed, TILE_ATTRIBUTION: 'none' }))).toEqual([]);
    });
  });
});

describe('production without an upstream (NODE_ENV, UPSTREAM_BASE_URL, DEMO)', () => {
  const remote = { UPSTREAM_BASE_URL: 'https://tracking.example.com', PARTNER_ID: '12', ACCOUNT_ID: 'enc' };

  it('refuses to serve the made-up fleet unless DEMO=true, in one line naming what to set', () => {
    const refusal = startRefusal(parseEnv({ NODE_ENV: 'production' })) ?? '';
    expect(refusal).toMatch(/^NODE_ENV=production but UPSTREAM_BASE_URL is not set: .*DEMO=true/);
    expect(refusal).not.toMatch(/\n/);
    expect(startRefusal(parseEnv({ NODE_ENV: 'production', DEMO: 'true' }))).toBeUndefined();
    expect(startRefusal(parseEnv({ NODE_ENV: 'production', ...remote }))).toBeUndefined();
  });

  it('lets every other environment start the demo, as `npm start` does on a fresh clone', () => {
    for (const NODE_ENV of [undefined, '', 'development', 'test'])
      expect(startRefusal(parseEnv({ NODE_ENV })), String(NODE_ENV)).toBeUndefined();
    expect(parseEnv({}).DEMO).toBe(false);
    expect(() => parseEnv({ DEMO: 'sure' })).toThrow(/DEMO: must be true or false/);
  });

  it('warns that DEMO=true does nothing beside an upstream', () => {
    expect(configWarnings(parseEnv({ DEMO: 'true', ...remote }))).toEqual([
      expect.stringMatching(/^Warning: DEMO=true has no effect: UPSTREAM_BASE_URL is set/),
    ]);
    expect(configWarnings(parseEnv({ DEMO: 'true' }))).toEqual([]);
  });
});

describe('settings that have no effect (configWarnings)', () => {
  const warningsOf = (source: Record<string, string>) => configWarnings(parseEnv(source), source);

  it('names an unknown variable spelt close to a setting, and the setting, never its value', () => {
    const source = {
      DATABSE_URL: 'postgres://haulview:hunter2@db/haulview',
      REFERSH_SECONDS: '10',
      SESION_IDLE_MINUTES: '60',
      PROT: '8090',
    };
    const warnings = warningsOf(source);
    expect(warnings).toEqual([
      'Warning: DATABSE_URL is not a Haulview setting; did you mean DATABASE_URL?',
      'Warning: PROT is not a Haulview setting; did you mean PORT?',
      'Warning: REFERSH_SECONDS is not a Haulview setting; did you mean REFRESH_SECONDS?',
      'Warning: SESION_IDLE_MINUTES is not a Haulview setting; did you mean SESSION_IDLE_MINUTES?',
    ]);
    expect(warnings.join('\n')).not.toContain('hunter2');
  });

  it("leaves alone the settings, the system's and tools' variables, and names far from any setting", () => {
    expect(
      warningsOf({
        PORT: '8090',
        DATABASE_URL: 'postgres://db/haulview',
        HOME: '/root',
        PATH: '/usr/bin',
        TERM: 'xterm',
        HOSTNAME: 'box',
        NODE_OPTIONS: '--max-old-space-size=512',
        PGPORT: '5432',
        SIM_FAULT_ERROR_RATE: '0.1',
        BENCH_RUNS: '3',
        CHROMIUM_PATH: '/usr/bin/chromium',
        GITHUB_TOKEN: 'x',
        npm_config_port: '1',
        DATABSE_URL: '',
      }),
    ).toEqual([]);
  });

  it('says that partner credentials without UPSTREAM_BASE_URL serve the simulator', () => {
    expect(warningsOf({ PARTNER_ID: '4242', ACCOUNT_ID: 'enc-secret' })).toEqual([
      "Warning: PARTNER_ID and ACCOUNT_ID are set but UPSTREAM_BASE_URL is not: the embedded simulator's " +
        "made-up fleet is served, not the service's loads. Set UPSTREAM_BASE_URL to pull from the service.",
    ]);
    expect(warningsOf({ ACCOUNT_ID: 'enc-secret' })).toEqual([
      expect.stringMatching(/^Warning: ACCOUNT_ID is set but UPSTREAM_BASE_URL is not: /),
    ]);
    expect(
      warningsOf({
        UPSTREAM_BASE_URL: 'https://tracking.example.com',
        PARTNER_ID: '4242',
        ACCOUNT_ID: 'enc',
      }),
    ).toEqual([]);
  });
});

describe('the staleness thresholds (STALE_AFTER_MINUTES, SILENT_AFTER_MINUTES)', () => {
  const thresholds = (env: Record<string, string>) => {
    const { STALE_AFTER_MINUTES, SILENT_AFTER_MINUTES } = parseEnv(env);
    return [STALE_AFTER_MINUTES, SILENT_AFTER_MINUTES];
  };

  it('default to 30 and 120 minutes and take whole minutes from the environment', () => {
    expect(thresholds({})).toEqual([30, 120]);
    expect(thresholds({ STALE_AFTER_MINUTES: '45', SILENT_AFTER_MINUTES: '240' })).toEqual([45, 240]);
    // Each alone, the other keeps its default.
    expect(thresholds({ STALE_AFTER_MINUTES: '10' })).toEqual([10, 120]);
    expect(thresholds({ SILENT_AFTER_MINUTES: '31' })).toEqual([30, 31]);
    // From one minute to a week.
    expect(thresholds({ STALE_AFTER_MINUTES: '1', SILENT_AFTER_MINUTES: '10080' })).toEqual([1, 10_080]);
  });

  it.each([
    ['STALE_AFTER_MINUTES', 'soon'],
    ['STALE_AFTER_MINUTES', '0'],
    ['STALE_AFTER_MINUTES', '-5'],
    ['STALE_AFTER_MINUTES', '7.5'],
    ['SILENT_AFTER_MINUTES', 'never'],
    ['SILENT_AFTER_MINUTES', '10081'],
    ['SILENT_AFTER_MINUTES', '90.5'],
  ])('stop start-up on %s=%s, naming the variable', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`^  ${name}: `, 'm'));
  });

  it('refuse a silent threshold that does not come after the stale one, naming both', () => {
    for (const env of [
      { STALE_AFTER_MINUTES: '60', SILENT_AFTER_MINUTES: '60' },
      { STALE_AFTER_MINUTES: '60', SILENT_AFTER_MINUTES: '45' },
      // Against a default: stale after 3 hours would come after the default silent (2 hours).
      { STALE_AFTER_MINUTES: '180' },
      { SILENT_AFTER_MINUTES: '20' },
    ])
      expect(() => parseEnv(env), JSON.stringify(env)).toThrow(
        /SILENT_AFTER_MINUTES: must be greater than STALE_AFTER_MINUTES/,
      );
    expect(thresholds({ STALE_AFTER_MINUTES: '60', SILENT_AFTER_MINUTES: '61' })).toEqual([60, 61]);
  });

  it('reach the browser through /api/config as configured', async () => {
    const configOf = async (env: Record<string, string>) => {
      const stack = await startStack({ loads: 1, env });
      try {
        return ClientConfig.parse(await (await fetch(`${stack.proxy.url}/api/config`)).json());
      } finally {
        await stack.close();
      }
    };
    expect(await configOf({})).toMatchObject({ staleAfterMinutes: 30, silentAfterMinutes: 120 });
    expect(await configOf({ STALE_AFTER_MINUTES: '45', SILENT_AFTER_MINUTES: '240' })).toMatchObject({
      staleAfterMinutes: 45,
      silentAfterMinutes: 240,
    });
  });

  it('a bad one stops the server: exit code 2, the variable named, nothing listening', async () => {
    const child = spawn('npx', ['tsx', 'src/server/main.ts'], {
      env: { ...readProcessEnv(), PORT: '8492', SIM_PORT: '8493', STALE_AFTER_MINUTES: 'half-an-hour' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(output).toMatch(/Invalid configuration:\n {2}STALE_AFTER_MINUTES: /);
      expect(output).not.toMatch(/Simulator:|Haulview: http/);
      expect(code).toBe(2);
      // Nothing answers where it would have listened.
      await expect(fetch('http://127.0.0.1:8492/api/health')).rejects.toThrow();
    } finally {
      child.kill();
    }
  }, 30_000);
});

describe('the ETA settings (ETA_ROAD_FACTOR, ETA_SLACK_MINUTES, ETA_DRIVE_HOURS, ETA_REST_HOURS)', () => {
  it('default to a 1.2 road factor, an hour of slack and 11 h of driving then 10 h of rest', () => {
    const o = outlookOptionsOf(parseEnv({}), 'remote');
    expect([o.roadFactor, o.slackMinutes, o.driveHours, o.restHours, o.clockScale]).toEqual([
      1.2, 60, 11, 10, 1,
    ]);
  });

  it("are read from the environment, and the simulator's clock speed scales the demo's", () => {
    const env = parseEnv({
      ETA_ROAD_FACTOR: '1.3',
      ETA_SLACK_MINUTES: '30',
      ETA_DRIVE_HOURS: '10',
      ETA_REST_HOURS: '8',
      SIM_SPEED: '120',
    });
    expect(outlookOptionsOf(env, 'simulator')).toMatchObject({
      roadFactor: 1.3,
      slackMinutes: 30,
      driveHours: 10,
      restHours: 8,
      clockScale: 120,
    });
    expect(outlookOptionsOf(env, 'remote').clockScale).toBe(1);
  });

  it('refuse a road factor below 1 and a slack that is no number, naming the variable', () => {
    expect(() => parseEnv({ ETA_ROAD_FACTOR: '0.8' })).toThrow(/ETA_ROAD_FACTOR/);
    expect(() => parseEnv({ ETA_SLACK_MINUTES: 'soon' })).toThrow(/ETA_SLACK_MINUTES/);
    expect(() => parseEnv({ ETA_DRIVE_HOURS: '0' })).toThrow(/ETA_DRIVE_HOURS/);
  });
});

describe('the stop settings (STOP_RADIUS_METERS, FREE_TIME_MINUTES)', () => {
  it('default to a 300 m fence and 2 h of free time, and are read from the environment', () => {
    const o = outlookOptionsOf(parseEnv({}), 'remote');
    expect([o.stopRadiusMeters, o.freeMinutes]).toEqual([300, 120]);
    const set = outlookOptionsOf(parseEnv({ STOP_RADIUS_METERS: '500', FREE_TIME_MINUTES: '90' }), 'remote');
    expect([set.stopRadiusMeters, set.freeMinutes]).toEqual([500, 90]);
  });

  it('refuse a fence too small to hold a fix, a negative free time, and words, naming the variable', () => {
    expect(() => parseEnv({ STOP_RADIUS_METERS: '5' })).toThrow(/STOP_RADIUS_METERS/);
    expect(() => parseEnv({ STOP_RADIUS_METERS: '300m' })).toThrow(/STOP_RADIUS_METERS/);
    expect(() => parseEnv({ FREE_TIME_MINUTES: '-30' })).toThrow(/FREE_TIME_MINUTES/);
    expect(() => parseEnv({ FREE_TIME_MINUTES: 'two hours' })).toThrow(/FREE_TIME_MINUTES/);
  });
});
