import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env';
import { loggedPath, requestLog, stamped } from './logging';

describe('the request log', () => {
  it('names a share link’s route, never its token', () => {
    expect(loggedPath('/share/vekLpQZNeACAbJncD-jEBg')).toBe('/share/…');
    expect(loggedPath('/api/share/vekLpQZNeACAbJncD-jEBg')).toBe('/api/share/…');
    // The team's own routes and the page's file say nothing secret: written as they are.
    for (const path of ['/api/shares', '/api/shares/12', '/share.html', '/api/pull/by-external-id'])
      expect(loggedPath(path)).toBe(path);
  });

  it('writes a line per request, but none for a probe that passed', async () => {
    const lines: string[] = [];
    let ready = 200;
    const app = new Hono<AppEnv>()
      .use(requestLog((l) => lines.push(l)))
      .get('/api/health', (c) => c.json({ ok: true }))
      .get('/api/ready', (c) =>
        ready === 200 ? c.json({ ready: true }, 200) : c.json({ ready: false }, 503),
      )
      .get('/share/:token', (c) => c.text('page'));
    await app.request('/api/health');
    await app.request('/api/ready');
    expect(lines).toEqual([]);
    ready = 503;
    await app.request('/api/ready');
    await app.request('/share/vekLpQZNeACAbJncD-jEBg');
    expect(lines.map((l) => JSON.parse(l) as { path: string; status: number })).toMatchObject([
      { path: '/api/ready', status: 503 },
      { path: '/share/…', status: 200 },
    ]);
  });
});

describe('the runtime’s lines', () => {
  it('each begin with the instant it was written, in UTC', () => {
    const lines: string[] = [];
    const at = [Date.parse('2026-11-28T23:05:09.042Z'), Date.parse('2026-11-29T00:00:00Z')];
    const log = stamped(
      (l) => lines.push(l),
      () => at.shift() as number,
    );
    log('Puller: no longer pulling (lease lost)');
    log('Haulview stopped.');
    expect(lines).toEqual([
      '2026-11-28T23:05:09.042Z Puller: no longer pulling (lease lost)',
      '2026-11-29T00:00:00.000Z Haulview stopped.',
    ]);
  });
});
