import { describe, expect, it } from 'vitest';
import {
  byOfPrefix,
  formatLoadParam,
  LOAD_BYS,
  loadKey,
  loadLabel,
  loadPageHref,
  loadTitle,
  mapHref,
  parseLoadKey,
  parseLoadPage,
  parseLoadParam,
  refPrefix,
  type LoadRef,
} from './load-ref';

const refs: LoadRef[] = [
  { by: 'external-id', id: '700100' },
  { by: 'load-number', id: 'LN-1' },
  { by: 'external-id', id: 'a:b,c;d' },
  { by: 'load-number', id: 'LN 1/2&x?y#z' },
];

const url = (href: string) => new URL(href, 'http://localhost');
/** A `/loads/:by/:id` path's parts as wouter hands them over: decoded once with decodeURI. */
const pageParams = (href: string) => {
  const [, , by, id] = url(href).pathname.split('/');
  return { by, id: id === undefined ? undefined : decodeURI(id) };
};

describe('load references', () => {
  it.each(refs)('round-trips $by $id through its key, its ?load= value, its map link and its page', (ref) => {
    expect(parseLoadKey(loadKey(ref))).toEqual(ref);
    expect(parseLoadParam(formatLoadParam(ref))).toEqual(ref);
    expect(parseLoadParam(url(mapHref(ref)).searchParams.get('load'))).toEqual(ref);
    expect(parseLoadPage(pageParams(loadPageHref(ref)))).toEqual(ref);
  });

  it('round-trips an id with a percent sign through its key and its ?load= value', () => {
    const ref: LoadRef = { by: 'external-id', id: '50%25 off' };
    expect(parseLoadKey(loadKey(ref))).toEqual(ref);
    expect(parseLoadParam(url(mapHref(ref)).searchParams.get('load'))).toEqual(ref);
  });

  it('writes each key once per id', () => {
    const key = loadKey({ by: 'external-id', id: '700100' });
    expect(key).toBe('external-id:700100');
    expect(loadKey({ by: 'external-id', id: '700100' })).toBe(key);
    expect(loadKey({ by: 'load-number', id: '700100' })).toBe('load-number:700100');
  });

  it('writes the URL forms readably', () => {
    expect(formatLoadParam({ by: 'external-id', id: '700100' })).toBe('e:700100');
    expect(mapHref({ by: 'load-number', id: 'LN 1/2&x' })).toBe('/?load=n:LN%201%2F2%26x');
    expect(loadPageHref({ by: 'load-number', id: 'LN 1/2' })).toBe('/loads/load-number/LN%201%2F2');
  });

  it('maps each kind to its letter and back', () => {
    for (const by of LOAD_BYS) expect(byOfPrefix(refPrefix(by))).toBe(by);
    expect(byOfPrefix('x')).toBeUndefined();
    expect(byOfPrefix('')).toBeUndefined();
  });

  it('refuses keys that name no load', () => {
    for (const key of ['', 'external-id:', 'external-id', 'load:1', '700100', 'e:700100']) {
      expect(parseLoadKey(key)).toBeNull();
    }
  });

  it('refuses ?load= values that name no load', () => {
    const long = 'x'.repeat(65);
    for (const text of [null, '', 'e', 'e:', 'x:700100', 'e700100', 'en:1', `e:${long}`, 'n:a\u0007b']) {
      expect(parseLoadParam(text)).toBeNull();
    }
  });

  it('refuses load pages that name no load, and reads an id the router decoded already', () => {
    expect(parseLoadPage({ by: 'by-name', id: '1' })).toBeNull();
    expect(parseLoadPage({ by: 'external-id' })).toBeNull();
    expect(parseLoadPage({ by: 'external-id', id: '' })).toBeNull();
    expect(parseLoadPage({})).toBeNull();
    expect(parseLoadPage({ by: 'external-id', id: '50%' })).toEqual({ by: 'external-id', id: '50%' });
  });

  it('labels a load by the id it is watched by', () => {
    const load = { id: '700100', externalId: '700100', loadNumber: 'LN1' };
    expect(loadLabel({ ...load, by: 'external-id' })).toBe('700100');
    expect(loadLabel({ ...load, id: 'LN1', by: 'load-number' })).toBe('LN1');
    expect(loadLabel({ by: 'load-number', id: 'LN2', externalId: undefined, loadNumber: undefined })).toBe(
      'LN2',
    );
    expect(loadTitle('700100')).toBe('Load 700100');
  });
});
