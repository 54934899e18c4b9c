import { describe, expect, it } from 'vitest';
import { MAX_REPLAY_LOADS, parseReplayLoads, replayHref } from './replay-link';

describe('replay links', () => {
  it('write and read back the loads, the instant and the speed', () => {
    const href = replayHref(
      [
        { by: 'external-id', id: '700100' },
        { by: 'load-number', id: 'LN1' },
      ],
      { t: Date.UTC(2026, 10, 26, 12, 0, 5), speed: 600 },
    );
    expect(href).toBe('/replay?loads=e:700100,n:LN1&t=2026-11-26T12:00:05.000Z&speed=600');
    const params = new URLSearchParams(href.split('?')[1]);
    expect(parseReplayLoads(params.get('loads'))).toEqual([
      { by: 'external-id', id: '700100' },
      { by: 'load-number', id: 'LN1' },
    ]);
  });

  it('leave out bad pieces, repeats and loads past the most', () => {
    expect(parseReplayLoads('e:1,x:2,e:,e:1,n:LN 9,e:\u0001')).toEqual([
      { by: 'external-id', id: '1' },
      { by: 'load-number', id: 'LN 9' },
    ]);
    expect(parseReplayLoads(null)).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => `e:${i}`).join(',');
    expect(parseReplayLoads(many)).toHaveLength(MAX_REPLAY_LOADS);
  });
});
