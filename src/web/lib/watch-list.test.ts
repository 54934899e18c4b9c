import { beforeEach, describe, expect, it } from 'vitest';
import { decodeWatch, encodeWatch, hasSavedWatchList, parseIdText, watchList } from './watch-list';

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
    expect(window.location.search).toBe('?w=e%3A2%3Bn%3ALN1');
    watchList.clear();
    expect(window.location.search).toBe('');
    expect(hasSavedWatchList()).toBe(true);
  });

  it('opens a shared link with the list it carries, over what this browser had', () => {
    window.localStorage.setItem('haulview.watch', 'e:9');
    window.history.replaceState(null, '', '/?w=e:1,2');
    watchList.reset();
    watchList.add('load-number', ['LN7']);
    expect(window.localStorage.getItem('haulview.watch')).toBe('e:1,2;n:LN7');
  });
});
