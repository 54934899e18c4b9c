import { beforeEach, describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import {
  decodeWatch,
  encodeWatch,
  hasSavedWatchList,
  parseIdText,
  useWatchList,
  useWatchListInUrl,
  watchList,
} from './watch-list';

describe('parseIdText', () => {
  it('reads one id, or many separated by commas, spaces, tabs and new lines, folding duplicates', () => {
    expect(parseIdText('700100').ids).toEqual(['700100']);
    expect(parseIdText('700100, 700101;700102\n700103\t700104  700100\r\n').ids).toEqual([
      '700100',
      '700101',
      '700102',
      '700103',
      '700104',
    ]);
  });

  it('reads a column copied from a spreadsheet', () => {
    expect(parseIdText('LN100200-1\r\nLN100201-2\r\nLN100202-3\r\n').ids).toEqual([
      'LN100200-1',
      'LN100201-2',
      'LN100202-3',
    ]);
  });

  it('refuses malformed ids with the reason and keeps the good ones', () => {
    const long = 'x'.repeat(65);
    const result = parseIdText(`ok-1 ${long} caf\u00e9 ok-2`);
    expect(result.ids).toEqual(['ok-1', 'ok-2']);
    expect(result.refused).toEqual([
      { text: long, reason: 'an id must be at most 64 characters' },
      { text: 'caf\u00e9', reason: 'an id may hold printable characters only' },
    ]);
  });
});

describe('encodeWatch / decodeWatch', () => {
  it('round-trips both kinds of id, including ids with separators in them', () => {
    const entries = [
      { by: 'external-id' as const, id: '700100' },
      { by: 'load-number' as const, id: 'LN,1;2' },
      { by: 'external-id' as const, id: 'a/b' },
    ];
    const encoded = encodeWatch(entries);
    expect(encoded).toBe('e:700100,a%2Fb;n:LN%2C1%3B2');
    expect(decodeWatch(encoded)).toEqual([entries[0], entries[2], entries[1]]);
  });

  it('writes runs of consecutive numbers as ranges, keeps the order, and reads them back', () => {
    const ids = [
      '700100',
      '700101',
      '700102',
      '700103',
      '12',
      '13',
      'LN-1',
      '0',
      '1',
      '2',
      '007',
      '008',
      '009',
    ];
    const entries = ids.map((id) => ({ by: 'external-id' as const, id }));
    const encoded = encodeWatch(entries);
    // Two in a row stay as they are; "007" is not a plain number.
    expect(encoded).toBe('e:700100:700103,12,13,LN-1,0:2,007,008,009');
    expect(decodeWatch(encoded)).toEqual(entries);
    const fleet = Array.from({ length: 10_000 }, (_, i) => ({
      by: 'external-id' as const,
      id: String(700100 + i),
    }));
    expect(encodeWatch(fleet)).toBe('e:700100:710099');
    expect(decodeWatch(encodeWatch(fleet))).toEqual(fleet);
  });

  it('refuses ranges that are backwards, not plain numbers or too long, and folds overlaps', () => {
    expect(decodeWatch('e:5:3,a:c,1:,01:3,1:100000000,7')).toEqual([{ by: 'external-id', id: '7' }]);
    expect(decodeWatch('e:1:3,2:4').map((e) => e.id)).toEqual(['1', '2', '3', '4']);
  });

  it('ignores what it cannot read instead of failing', () => {
    expect(decodeWatch('x:1;e:%E0%A4%A,ok;n:')).toEqual([{ by: 'external-id', id: 'ok' }]);
  });
});

describe('watchList store', () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.history.replaceState(null, '', '/');
    watchList.reset();
  });

  it('keeps the list in localStorage and in the URL', () => {
    expect(hasSavedWatchList()).toBe(false);
    watchList.add('external-id', ['1', '2']);
    watchList.add('load-number', ['LN1']);
    watchList.add('external-id', ['2']);
    expect(window.localStorage.getItem('haulview.watch')).toBe('e:1,2;n:LN1');
    expect(new URLSearchParams(window.location.search).get('w')).toBe('e:1,2;n:LN1');
    watchList.remove({ by: 'external-id', id: '1' });
    expect(window.location.search).toBe('?w=e:2%3Bn:LN1');
    watchList.clear();
    expect(window.location.search).toBe('');
    expect(hasSavedWatchList()).toBe(true);
  });

  it('a return visit reads the list from storage and puts it back in the URL, so the address is a link', () => {
    window.localStorage.setItem('haulview.watch', 'e:1,2;n:LN1');
    window.history.replaceState(null, '', '/?map=39,-96,4');
    watchList.reset();
    renderHook(() => useWatchListInUrl(useWatchList()));
    const query = new URLSearchParams(window.location.search);
    expect(query.get('w')).toBe('e:1,2;n:LN1');
    expect(query.get('map')).toBe('39,-96,4');
  });

  it('leaves an empty list in the URL as it is (a link that asks for no demo fleet)', () => {
    window.history.replaceState(null, '', '/?w=');
    watchList.reset();
    renderHook(() => useWatchListInUrl(useWatchList()));
    expect(window.location.search).toBe('?w=');
  });

  it('opens a shared link with the list it carries, over what this browser had', () => {
    window.localStorage.setItem('haulview.watch', 'e:9');
    window.history.replaceState(null, '', '/?w=e:1,2');
    watchList.reset();
    watchList.add('load-number', ['LN7']);
    expect(window.localStorage.getItem('haulview.watch')).toBe('e:1,2;n:LN7');
  });
});
