import { z } from 'zod';
import { DEFAULT_OUTLOOK_OPTIONS, type OutlookOptions } from '@/domain/outlook';

/** Ids per browser request by default (MAX_IDS). */
export const DEFAULT_MAX_IDS = 500;

/** MiB of serialized loads kept for answers by default (ANSWER_CACHE_MB, TRACKS=store). */
export const DEFAULT_ANSWER_CACHE_MB = 16;

/** A value as a message may quote it: in quotes, escaped, cut short. */
const quoted = (raw: string | number) => {
  const text = String(raw);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
};

/**
 * A number setting between `min` and `max`. A bad value is refused with the range and what was
 * given, so the operator sees the mistake; a credential's value is never quoted.
 */
const numberIn = (min: number, max: number, { whole = false, secret = false } = {}) =>
  z.union([z.string(), z.number()]).transform((raw, ctx) => {
    const n = typeof raw === 'number' ? raw : raw.trim() === '' ? NaN : Number(raw);
    if (Number.isNaN(n) || (whole && !Number.isInteger(n)) || n < min || n > max) {
      const got = secret ? ' (its value is not shown: it is a credential)' : ` (got ${quoted(raw)})`;
      ctx.issues.push({
        code: 'custom',
        input: raw,
        message: `must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}${got}`,
      });
      return z.NEVER;
    }
    return n;
  });
const int = (min: number, max: number, options: { secret?: boolean } = {}) =>
  numberIn(min, max, { ...options, whole: true });
const port = int(0, 65535);
/** Simulator: load 0 gets this many pings (a benchmark's long track); 0 = off. */
const longTrackPings = int(0, 1_000_000)
  .refine((n) => n !== 1, 'must be 0 (off) or at least 2')
  .default(0);

/** Texts separated by `|` (an event name may hold commas), each 1–100 characters once trimmed. */
const textList = z
  .string()
  .transform((v) => v.split('|').map((t) => t.trim()))
  .refine((texts) => texts.every((t) => t.length > 0 && t.length <= 100), {
    error: 'must be texts separated by |, each 1 to 100 characters, none empty',
  })
  .refine((texts) => texts.length <= 100, { error: 'may hold at most 100 texts' });

export const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/**
 * HTML-escapes text, keeping character references (`&copy;`, `&#169;`) as written: they cannot
 * open a tag or leave an attribute, and providers' credit lines use them.
 */
const escapeHtml = (text: string) =>
  text.replace(
    /&(?![a-z][a-z0-9]*;|#\d+;|#x[0-9a-f]+;)|["'<>]/gi,
    (c) => ({ '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;' })[c] ?? c,
  );

const LINK = /<a((?:\s+[a-z]+="[^"<>]*")+)\s*>([^<>]*)<\/a\s*>/gi;
const LINK_ATTRIBUTE = /\s+([a-z]+)="([^"<>]*)"/gi;

/**
 * A tile attribution as safe HTML, or null when it holds more than text and links. Leaflet's
 * attribution control sets it as innerHTML, so it is rebuilt here from what was understood, not
 * passed on: text (escaped) and `<a href="http(s)://…">text</a>` links (a provider's
 * `target="_blank"` and `rel` are allowed and rewritten). Any other tag, attribute or scheme is
 * refused at start-up rather than guessed at.
 */
export function attributionHtml(source: string): string | null {
  let html = '';
  let at = 0;
  for (const link of source.matchAll(LINK)) {
    const between = source.slice(at, link.index);
    if (/[<>]/.test(between)) return null;
    const attributes = new Map<string, string>();
    for (const [, name, value] of (link[1] ?? '').matchAll(LINK_ATTRIBUTE)) {
      const key = (name ?? '').toLowerCase();
      if (attributes.has(key)) return null;
      attributes.set(key, value ?? '');
    }
    const href = attributes.get('href');
    const target = attributes.get('target');
    if (href === undefined || !/^https?:\/\/[^\s"'<>`]+$/i.test(href)) return null;
    if (target !== undefined && target !== '_blank') return null;
    if ([...attributes.keys()].some((k) => !['href', 'target', 'rel'].includes(k))) return null;
    const opens = target === undefined ? '' : ' target="_blank" rel="noopener noreferrer"';
    html += `${escapeHtml(between)}<a href="${escapeHtml(href)}"${opens}>${escapeHtml(link[2] ?? '')}</a>`;
    at = link.index + link[0].length;
  }
  const rest = source.slice(at);
  if (/[<>]/.test(rest)) return null;
  return html + escapeHtml(rest);
}

/** TILE_ATTRIBUTION: `none` (no credit line, on purpose) becomes '', anything else safe HTML. */
const tileAttribution = z
  .string()
  .trim()
  .min(1, 'must not be blank (none = no credit line)')
  .max(2000)
  .transform((v, ctx) => {
    if (v === 'none') return '';
    const html = attributionHtml(v);
    if (html === null) {
      ctx.issues.push({
        code: 'custom',
        input: v,
        message: 'must be plain text and <a href="https://…">…</a> links only, or "none"',
      });
      return z.NEVER;
    }
    return html;
  });

/**
 * The environment, read once and parsed by one schema. A bad value stops start-up with a message
 * that names the variable. Nothing else reads `process.env`.
 */
export const EnvSchema = z
  .object({
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(8080),
    UPSTREAM_BASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://tracking.example.com' })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    PARTNER_ID: int(0, Number.MAX_SAFE_INTEGER, { secret: true }).optional(),
    ACCOUNT_ID: z.string().min(1).optional(),
    REFRESH_SECONDS: int(2, 3600).default(30),
    TILE_URL: z
      .string()
      .default(OSM_TILE_URL)
      .refine(
        (v) => v === 'none' || (/^https?:\/\//.test(v) && v.includes('{z}')),
        'must be an http(s) template with {z}/{x}/{y}, or "none"',
      ),
    /** The tiles' credit line; unset = OpenStreetMap's for its tiles, none for others (with a warning). */
    TILE_ATTRIBUTION: tileAttribution.optional(),
    STALE_AFTER_MINUTES: int(1, 10_080).default(30),
    SILENT_AFTER_MINUTES: int(1, 10_080).default(120),
    EXCURSION_TOLERANCE: numberIn(0, 100).default(5),
    LOW_CONFIDENCE_METERS: int(1, 1_000_000).default(500),
    /** ETAs: road miles per great-circle mile. */
    ETA_ROAD_FACTOR: numberIn(1, 3).default(1.2),
    /** An ETA this many minutes or less before its appointment is "at risk". */
    ETA_SLACK_MINUTES: int(0, 1440).default(60),
    /** The rest rule: hours of driving, then a rest of this many hours. */
    ETA_DRIVE_HOURS: numberIn(1, 24).default(11),
    ETA_REST_HOURS: numberIn(0, 48).default(10),
    /** A stop's fence: a ping this near its point, widened by the ping's accuracy, is at the stop. */
    STOP_RADIUS_METERS: int(25, 10_000).default(300),
    /** Minutes at a stop before detention starts. */
    FREE_TIME_MINUTES: int(0, 10_080).default(120),
    /** A delivered load with no POD this many hours after delivery is overdue (track hours). */
    POD_DUE_HOURS: numberIn(0, 8760).default(24),
    /**
     * Origins (`https://hooks.internal:8443`, comma-separated) alert webhooks may post to although
     * they are on this machine or a private network, or plain http: an operator's own relay.
     */
    ALERT_WEBHOOK_ALLOW: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t.length > 0),
      )
      .refine((list) => list.every((o) => URL.canParse(o) && new URL(o).origin === o.replace(/\/+$/, '')), {
        error: 'must be origins separated by commas, e.g. http://10.0.0.5:8080 (no path)',
      })
      .transform((list) => list.map((o) => new URL(o).origin))
      .default([]),
    /** Load detail: more status-event names to hide as app notices, added to the built-in list. */
    NOISE_RULES: textList.optional(),
    /** The same, but only for events that carry no code. */
    NOISE_RULES_WITHOUT_CODE: textList.optional(),
    /** `false` drops the built-in list, leaving only the two above. */
    NOISE_RULES_BUILT_IN: z.stringbool({ error: 'must be true or false' }).default(true),
    /** No longer used (users log in now): a start with it set stops and says what to do instead. */
    DASHBOARD_TOKEN: z.string().optional(),
    /**
     * The origin browsers reach Haulview at, e.g. https://haulview.example.com behind a TLS terminator:
     * the Origin check compares with it, and when https the session cookie is Secure and `__Host-`.
     */
    PUBLIC_ORIGIN: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) origin, e.g. https://haulview.example.com' })
      .transform((u) => new URL(u).origin)
      .optional(),
    /** How many proxies of your own stand in front: X-Forwarded-For/-Proto are believed only then. */
    TRUST_PROXY: int(0, 10).default(0),
    /** A session ends after this long without a request (an open map keeps it alive). */
    SESSION_IDLE_MINUTES: int(5, 10_080).default(480),
    /** …and this long after its login, whatever happens. */
    SESSION_MAX_HOURS: int(1, 8760).default(24),
    /**
     * Audit entries older than this many days are deleted, once at start and every hour. At most
     * about ten years: a longer wish is a mistake, not a policy.
     */
    RETENTION_DAYS: int(1, 3650).default(365),
    MAX_IDS: int(1, 10_000).default(DEFAULT_MAX_IDS),
    UPSTREAM_MAX_IDS: int(1, 10_000).default(100),
    /**
     * Items one upstream call is expected to bring at most (reckoned from each load's earlier answers):
     * what bounds the proxy's memory with long tracks, as UPSTREAM_MAX_IDS bounds it with many loads.
     */
    UPSTREAM_MAX_ITEMS: int(100, 10_000_000).default(20_000),
    UPSTREAM_TIMEOUT_MS: int(100, 600_000).default(15_000),
    /** The most an upstream answer may hold, decoded; a larger one is a 502. 64 MiB. */
    UPSTREAM_MAX_BYTES: int(1024, 2 ** 30).default(64 * 1024 * 1024),
    CACHE_MAX_LOADS: int(1, 1_000_000).default(5000),
    /** On SIGTERM or SIGINT: how long requests in flight may take to finish before the process ends. */
    SHUTDOWN_GRACE_SECONDS: int(0, 3600).default(20),
    /**
     * A connection with nothing read or written for this long is closed (0: never): a client that
     * stops reading an answer would otherwise hold its bytes in the proxy until it disconnects.
     */
    SOCKET_IDLE_SECONDS: int(0, 86_400).default(120),
    RESYNC_MINUTES: int(1, 1440).default(10),
    /** How long the puller's lease lasts without a renewal: another instance takes over after it. */
    LEASE_SECONDS: int(3, 600).default(15),
    /**
     * TRACKS=store: the most watched loads the puller pulls. It keeps a load's state and a bounded
     * trail, not its pings, so it holds many more than the in-memory cache's CACHE_MAX_LOADS.
     */
    PULLER_MAX_LOADS: int(1, 1_000_000).default(20_000),
    /**
     * Where tracks live: `store` (PostgreSQL, one puller for every instance: needed for several) or
     * `memory` (this process alone). Unset: `store` with DATABASE_URL, `memory` with the embedded store.
     */
    TRACKS: z.enum(['memory', 'store'], { error: 'must be memory or store' }).optional(),
    /** Minutes a load stays pulled after the last browser that asked for it (TRACKS=store). */
    WATCH_MINUTES: int(1, 1440).default(10),
    /**
     * TRACKS=store: MiB of serialized loads kept for answers with everything, shared by browsers
     * (0: none kept, each answer made afresh).
     */
    ANSWER_CACHE_MB: int(0, 65_536).default(DEFAULT_ANSWER_CACHE_MB),
    /** The embedded simulator's loopback port; unset = a free one, so demos can run side by side. */
    SIM_PORT: port.optional(),
    SIM_SEED: int(0, 2 ** 31).default(20261122),
    SIM_LOADS: int(1, 100_000).default(40),
    SIM_SPEED: numberIn(0.01, 100_000).default(60),
    SIM_LONG_TRACK_PINGS: longTrackPings,
    SIM_JWT_SECRET: z.string().min(16).default('haulview-demo-secret-do-not-use-in-production'),
    /** PostgreSQL (`postgres://user:password@host:port/database`); unset = the embedded store in DATA_DIR. */
    DATABASE_URL: z
      .url({
        protocol: /^postgres(ql)?$/,
        error: 'must be a postgres:// URL, e.g. postgres://haulview@db.example.com:5432/haulview',
      })
      .optional(),
    /** The embedded store's folder (PGlite's files and the lock that keeps a second process out). */
    DATA_DIR: z.string().min(1).default('./data'),
    /** Only `production` changes anything: see `startRefusal`. */
    NODE_ENV: z.string().optional(),
    /** With NODE_ENV=production and no upstream, `true` serves the simulator's fleet on purpose. */
    DEMO: z.stringbool({ error: 'must be true or false' }).default(false),
  })
  .superRefine((env, ctx) => {
    if (env.SILENT_AFTER_MINUTES <= env.STALE_AFTER_MINUTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['SILENT_AFTER_MINUTES'],
        message: 'must be greater than STALE_AFTER_MINUTES',
      });
    }
    if (env.UPSTREAM_BASE_URL !== undefined) {
      for (const key of ['PARTNER_ID', 'ACCOUNT_ID'] as const) {
        if (env[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when UPSTREAM_BASE_URL is set' });
      }
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** Where tracks live (TRACKS), with its default resolved. */
export const tracksModeOf = (env: Pick<Env, 'TRACKS' | 'DATABASE_URL'>): 'memory' | 'store' =>
  env.TRACKS ?? (env.DATABASE_URL === undefined ? 'memory' : 'store');

/**
 * How the proxy reckons each load's outlook (domain/outlook.ts). The simulator's clock runs
 * SIM_SPEED times faster than a real one: its loads' speeds and rests are reckoned on its clock.
 */
export function outlookOptionsOf(env: Env, mode: 'simulator' | 'remote'): OutlookOptions {
  return {
    ...DEFAULT_OUTLOOK_OPTIONS,
    roadFactor: env.ETA_ROAD_FACTOR,
    slackMinutes: env.ETA_SLACK_MINUTES,
    driveHours: env.ETA_DRIVE_HOURS,
    restHours: env.ETA_REST_HOURS,
    stopRadiusMeters: env.STOP_RADIUS_METERS,
    freeMinutes: env.FREE_TIME_MINUTES,
    clockScale: mode === 'simulator' ? env.SIM_SPEED : 1,
  };
}

export class ConfigError extends Error {}

/**
 * Parses an environment; throws ConfigError naming each bad variable. Only a number setting's value
 * is quoted, and never a credential's: URLs and texts may carry secrets.
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** The credit line under the map's tiles, as HTML fit for Leaflet ('' = none). */
export function tileAttributionOf(env: Env): string {
  if (env.TILE_URL === 'none') return '';
  return env.TILE_ATTRIBUTION ?? (env.TILE_URL === OSM_TILE_URL ? OSM_ATTRIBUTION : '');
}

/**
 * Why this configuration must not start, in one line; undefined when it may. A DASHBOARD_TOKEN left
 * from before users would otherwise be silently ignored. A production server
 * without an upstream would serve the simulator's made-up fleet as if it were the real one: a
 * forgotten UPSTREAM_BASE_URL must stop it, and a demo must be asked for.
 */
export function startRefusal(env: Env): string | undefined {
  if (env.DASHBOARD_TOKEN !== undefined) {
    return (
      'DASHBOARD_TOKEN is no longer used: people log in as users now. Add an admin with ' +
      '`npm run users -- add NAME --role admin` (or `node dist/server/users.js add NAME --role admin`), ' +
      'give each colleague a user with their role, then unset DASHBOARD_TOKEN.'
    );
  }
  if (env.NODE_ENV !== 'production' || env.UPSTREAM_BASE_URL !== undefined || env.DEMO) return undefined;
  return (
    "NODE_ENV=production but UPSTREAM_BASE_URL is not set: refusing to serve the simulator's made-up fleet. " +
    'Set UPSTREAM_BASE_URL, PARTNER_ID and ACCOUNT_ID, or DEMO=true to run the demo on purpose.'
  );
}

/** Names of this project's that are not the server's settings: never taken for a misspelling. */
const OTHER_NAMES = new Set(['CHROMIUM_PATH', 'E2E_PORT', 'MALLOC_MMAP_THRESHOLD_', 'PROXY_BENCH_CPU_PROF']);
const OTHER_PREFIXES = ['SIM_FAULT_', 'BENCH_'];
/** Common names of the system and of tools, kept clear of the distance rule below whatever it says. */
const SYSTEM_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'PWD',
  'OLDPWD',
  'HOSTNAME',
  'TMPDIR',
  'TZ',
  'MAIL',
  'SHLVL',
  'EDITOR',
  'DISPLAY',
  'DEBUG',
  'CI',
  'NODE_OPTIONS',
  'NODE_PATH',
  'INIT_CWD',
]);

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The setting an unknown name is likely a misspelling of, or undefined. Only names shaped like
 * ours (upper case, digits, underscores) count; short names allow one edit, longer ones two, so
 * HOME is not taken for HOST.
 */
function misspeltSetting(name: string, known: readonly string[]): string | undefined {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name) || known.includes(name) || SYSTEM_NAMES.has(name)) return undefined;
  if (OTHER_NAMES.has(name) || OTHER_PREFIXES.some((p) => name.startsWith(p))) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= (candidate.length <= 8 ? 1 : 2) && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}

/** The credentials the pull sends: without UPSTREAM_BASE_URL they only configure the simulator. */
const CREDENTIAL_NAMES = ['PARTNER_ID', 'ACCOUNT_ID'] as const;

/**
 * What start-up should warn about, one line each. Never a value: the tile URL may carry an API key
 * (in its query, path or host), and a misspelt name may hold a password, so the warnings name the
 * variables only. `source` is the raw environment, for the names it holds that are not settings.
 */
export function configWarnings(env: Env, source: Record<string, string | undefined> = {}): string[] {
  const warnings: string[] = [];
  const known = Object.keys(EnvSchema.shape);
  for (const name of Object.keys(source).sort()) {
    // An empty value counts as unset, as parseEnv reads it.
    const meant = source[name] ? misspeltSetting(name, known) : undefined;
    if (meant !== undefined)
      warnings.push(`Warning: ${name} is not a Haulview setting; did you mean ${meant}?`);
  }
  const credentials = CREDENTIAL_NAMES.filter((name) => env[name] !== undefined);
  if (env.UPSTREAM_BASE_URL === undefined && credentials.length > 0) {
    warnings.push(
      `Warning: ${credentials.join(' and ')} ${credentials.length > 1 ? 'are' : 'is'} set but UPSTREAM_BASE_URL is not: ` +
        "the embedded simulator's made-up fleet is served, not the service's loads. Set UPSTREAM_BASE_URL to pull from the service.",
    );
  }
  if (env.TILE_URL !== 'none' && env.TILE_URL !== OSM_TILE_URL && env.TILE_ATTRIBUTION === undefined) {
    warnings.push(
      'Warning: TILE_URL is set but TILE_ATTRIBUTION is not: the map tiles will show without a credit line. ' +
        "Set TILE_ATTRIBUTION to the tile provider's attribution, or to none if none is owed.",
    );
  }
  if (env.DEMO && env.UPSTREAM_BASE_URL !== undefined) {
    warnings.push(
      'Warning: DEMO=true has no effect: UPSTREAM_BASE_URL is set, so the service is used, not the simulator.',
    );
  }
  return warnings;
}

/** The process environment, read here and nowhere else. */
export function readProcessEnv(): Record<string, string | undefined> {
  return process.env;
}
