// `npx tsx bench/item-counts.ts` (issue 35): the new term's count of stored items
// (`storedItemCounts`) on a store the size of a busy account's. Fills a throwaway PostgreSQL (Debian's
// binaries, or a new database beside DATABASE_URL's server) with `BENCH_COUNTS_LOADS` loads (default
// 10,000) of `BENCH_COUNTS_ITEMS` pings each (default 2,000) by `generate_series`, then times the
// count of every load as the puller asks it, and prints PostgreSQL's plan of one of its queries.
// The pings are ping-sized rows (about 200 bytes of JSON), not the simulator's: what is timed is
// how the count reads the table, not what the rows say.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { storedItemCounts } from '@/server/tracks/track-store';
import { startPostgresCluster } from '@/testing/postgres-cluster';
import { benchStore } from './bench-store';

const LOADS = Number(process.env.BENCH_COUNTS_LOADS ?? 10_000);
const ITEMS = Number(process.env.BENCH_COUNTS_ITEMS ?? 2_000);
/** Loads filled per statement: progress to watch, and no statement holding the whole fill. */
const FILL_CHUNK = 250;
const MIB = 1024 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const cluster = process.env.DATABASE_URL ? undefined : await startPostgresCluster();
  const { store, drop } = await benchStore('postgres', process.env.DATABASE_URL ?? cluster?.url);
  const db = store.db;
  try {
    const t0 = performance.now();
    await sql`
      insert into track_loads (load_by, load_id, head, changed_seq)
      select 'external-id', l::text, '{"id":"x"}'::json, 1 from generate_series(1, ${LOADS}) l`.execute(db);
    for (let from = 1; from <= LOADS; from += FILL_CHUNK) {
      const to = Math.min(LOADS, from + FILL_CHUNK - 1);
      await sql`
        insert into track_items (load_by, load_id, list, key, instant, item, seq)
        select 'external-id', l::text, 'pings', 'p|' || (1763805600000 + n * 60000) || '|41.1|-90.' || n,
          1763805600000 + n * 60000,
          json_build_object('key', 'p|' || (1763805600000 + n * 60000) || '|41.1|-90.' || n,
            'instant', 1763805600000 + n * 60000, 'lat', 41.1, 'lon', -90 - n / 1000.0, 'accuracy', 10,
            'city', 'Springfield', 'state', 'IL', 'country', 'US', 'zone', 'America/Chicago'),
          1 + n
        from generate_series(${from}::int, ${to}::int) l, generate_series(1, ${ITEMS}::int) n`.execute(db);
      if (to % 2000 === 0 || to === LOADS)
        console.log(`  filled ${to} loads, ${Math.round((performance.now() - t0) / 1000)} s`);
    }
    await sql`analyze track_loads`.execute(db);
    await sql`analyze track_items`.execute(db);
    const size = (
      await sql<{ items: string; loads: string; rows: string }>`
        select pg_total_relation_size('track_items')::text as items,
               pg_total_relation_size('track_loads')::text as loads,
               (select count(*) from track_items)::text as rows`.execute(db)
    ).rows[0]!;
    const rows = Number(size.rows);
    console.log(
      `  ${rows} items; track_items ${(Number(size.items) / MIB).toFixed(0)} MiB, track_loads ` +
        `${(Number(size.loads) / MIB).toFixed(1)} MiB: ${((Number(size.items) + Number(size.loads)) / rows / 1e-6 / MIB).toFixed(0)} MiB a million items`,
    );

    // What the migration's backfill does once, at the upgrade: each load's count from its items.
    let start = performance.now();
    await sql`
      update track_loads l set items = c.items
      from (select load_by, load_id, count(*) as items from track_items group by load_by, load_id) c
      where l.load_by = c.load_by and l.load_id = c.load_id`.execute(db);
    console.log(
      `  the upgrade's count of every load's items: ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );
    await sql`vacuum analyze track_loads`.execute(db);

    const ids = Array.from({ length: LOADS }, (_, i) => String(i + 1));
    // The count as fcab4f0 made it: every item of the loads, grouped, 5,000 loads a query.
    const countingItems = (of: string[]) =>
      db
        .selectFrom('track_items')
        .select(['load_id', (eb) => eb.fn.countAll<string>().as('items')])
        .where('load_by', '=', 'external-id')
        .where('load_id', 'in', of)
        .groupBy('load_id');
    const keptCounts = (of: string[]) =>
      db
        .selectFrom('track_loads')
        .select(['load_id', 'items'])
        .where('load_by', '=', 'external-id')
        .where('load_id', 'in', of)
        .where('items', '>', '0');
    const time = async (label: string, count: () => Promise<Map<string, number>>) => {
      const times: number[] = [];
      for (let run = 0; run < 3; run++) {
        start = performance.now();
        const counts = await count();
        times.push(performance.now() - start);
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        if (counts.size !== LOADS || total !== rows)
          throw new Error(`counted ${total} in ${counts.size} loads`);
      }
      console.log(
        `  ${label}: ${LOADS} loads ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(times).toFixed(0)})`,
      );
    };
    const byItems = async () => {
      const counts = new Map<string, number>();
      for (let from = 0; from < ids.length; from += 5000)
        for (const r of await countingItems(ids.slice(from, from + 5000)).execute())
          counts.set(r.load_id, Number(r.items));
      return counts;
    };
    const plan = async (query: { compile: () => { sql: string; parameters: readonly unknown[] } }) => {
      const { sql: text, parameters } = query.compile();
      const explained = await sql
        .raw<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${text.replace(/\$(\d+)/g, (_, n: string) => `'${String(parameters[Number(n) - 1])}'`)}`,
        )
        .execute(db);
      console.log(explained.rows.map((r) => `    ${r['QUERY PLAN'].slice(0, 160)}`).join('\n'));
    };
    await time('counting the items, after the fill (analyzed)', byItems);
    await plan(countingItems(ids.slice(0, 5000)));
    await sql`vacuum track_items`.execute(db);
    await time('counting the items, after a vacuum', byItems);
    await plan(countingItems(ids.slice(0, 5000)));
    await time('storedItemCounts (the kept counts)', () => storedItemCounts(db, 'external-id', ids));
    await plan(keptCounts(ids.slice(0, 5000)));
  } finally {
    await drop().catch(() => undefined);
    cluster?.stop();
  }
}

await main();
