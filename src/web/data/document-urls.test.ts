import { describe, expect, it } from 'vitest';
import type { Document, Load } from '@/domain/model';
import { emptyLoad, testDocument } from '@/testing/loads';
import { documentUrlsKeeper } from './document-urls';
import type { PulledLoads } from './pull-answer';
import type { PullBody } from './pull-body';

const doc = testDocument;
const load = (id: string, ...documents: Document[]): Load => emptyLoad(id, 'external-id', { documents });
const answer = (cursor: string, loads: Load[], missing: string[] = []): PulledLoads => ({
  loads,
  missing,
  unreadable: [],
  fetchedAt: 0,
  cursor,
});

/** A proxy for the keeper: each pull gets the next answer, or the error given in its place. */
function proxy(...answers: (PulledLoads | Error)[]) {
  const bodies: PullBody[] = [];
  const pull = async (_by: unknown, body: PullBody) => {
    bodies.push(body);
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    if (next instanceof Error) throw next;
    return next;
  };
  return { pull, bodies };
}

const IDS = ['700100', '700200', '700300'];

describe('documentUrlsKeeper', () => {
  it('pulls every document first, then polls from its own cursor and merges what changed', async () => {
    const { pull, bodies } = proxy(
      answer('c1', [load('700100', doc('u/bol', 1)), load('700200', doc('u/seal', 3))], ['700300']),
      // A poll brings only the load whose documents changed, with its new document only.
      answer('c2', [load('700200', doc('u/lumper', 4))]),
    );
    const urlsOf = documentUrlsKeeper(pull);
    const first = await urlsOf('external-id', IDS, 'list-1', undefined);
    expect(first).toMatchObject({ urls: ['u/bol', 'u/seal'], missing: ['700300'] });
    expect(bodies[0]).toEqual({
      ids: IDS,
      include: expect.objectContaining({ documents: true, locations: false }),
    });

    const second = await urlsOf('external-id', IDS, 'list-1', first.version);
    expect(bodies[1]?.since).toBe('c1');
    // Nothing that came before is lost: the delta's document joins the load's earlier one.
    expect(second.urls).toEqual(['u/bol', 'u/seal', 'u/lumper']);
    expect(second.version).not.toBe(first.version);
  });

  it('lists each URL once, in the loads’ order (a load watched by both ids brings them twice)', async () => {
    const { pull } = proxy(
      answer('c1', [
        load('700100', doc('u/bol', 1), doc('u/pod', 2)),
        load('700200', doc('u/seal', 3), doc('u/bol', 1)),
        load('700300'),
      ]),
      answer('c2', [load('700300', doc('u/pod', 5)), load('700100', doc('u/bol', 1), doc('u/scale', 6))]),
    );
    const urlsOf = documentUrlsKeeper(pull);
    expect((await urlsOf('external-id', IDS, 'list-1', undefined)).urls).toEqual([
      'u/bol',
      'u/pod',
      'u/seal',
    ]);
    // A delta's documents join their loads: one the load had already is not counted again.
    const next = await urlsOf('external-id', IDS, 'list-1', undefined);
    expect(next.urls).toEqual(['u/bol', 'u/pod', 'u/scale', 'u/seal']);
  });

  it('forgets the loads a changed watch list no longer asks for', async () => {
    const { pull } = proxy(
      answer('c1', [load('700100', doc('u/bol', 1)), load('700200', doc('u/seal', 3))]),
      answer('c2', []),
    );
    const urlsOf = documentUrlsKeeper(pull);
    await urlsOf('external-id', IDS, 'list-1', undefined);
    expect((await urlsOf('external-id', ['700200'], 'list-1', undefined)).urls).toEqual(['u/seal']);
  });

  it('leaves the URLs out for the one who holds them, and keeps the version while they stay the same', async () => {
    const { pull } = proxy(
      answer('c1', [load('700100', doc('u/bol', 1))]),
      answer('c2', []),
      answer('c3', []),
    );
    const urlsOf = documentUrlsKeeper(pull);
    const first = await urlsOf('external-id', IDS, 'list-1', undefined);
    const held = await urlsOf('external-id', IDS, 'list-1', first.version);
    expect(held).toEqual({ version: first.version, urls: undefined, missing: [] });
    // Someone who holds nothing (a page reloaded, a cache that let it go) gets them.
    const fresh = await urlsOf('external-id', IDS, 'list-1', undefined);
    expect(fresh).toEqual({ version: first.version, urls: ['u/bol'], missing: [] });
  });

  it('drops the URLs of a load the service no longer knows', async () => {
    const { pull } = proxy(
      answer('c1', [load('700100', doc('u/bol', 1)), load('700200', doc('u/seal', 3))]),
      answer('c2', [], ['700200']),
    );
    const urlsOf = documentUrlsKeeper(pull);
    await urlsOf('external-id', IDS, 'list-1', undefined);
    expect((await urlsOf('external-id', IDS, 'list-1', undefined)).urls).toEqual(['u/bol']);
  });

  it('after a failed poll asks again from the same cursor, with what it had kept', async () => {
    const { pull, bodies } = proxy(
      answer('c1', [load('700100', doc('u/bol', 1))]),
      new Error('upstream down'),
      answer('c2', [load('700200', doc('u/seal', 3))]),
    );
    const urlsOf = documentUrlsKeeper(pull);
    await urlsOf('external-id', IDS, 'list-1', undefined);
    await expect(urlsOf('external-id', IDS, 'list-1', undefined)).rejects.toThrow('upstream down');
    const after = await urlsOf('external-id', IDS, 'list-1', undefined);
    expect(bodies.map((b) => b.since)).toEqual([undefined, 'c1', 'c1']);
    expect(after.urls).toEqual(['u/bol', 'u/seal']);
  });

  it('keeps each watch list apart, and its versions are not another keeper’s', async () => {
    const { pull, bodies } = proxy(
      answer('a1', [load('700100', doc('u/bol', 1))]),
      answer('b1', [load('LN1', doc('u/ln1', 1))]),
      answer('a1', [load('700100', doc('u/other', 1))]),
    );
    const urlsOf = documentUrlsKeeper(pull);
    const a = await urlsOf('external-id', IDS, 'list-a', undefined);
    const b = await urlsOf('load-number', ['LN1'], 'list-b', undefined);
    expect([a.urls, b.urls]).toEqual([['u/bol'], ['u/ln1']]);
    // A keeper started after the first failed: the page's version is not one of its own.
    const again = await documentUrlsKeeper(pull)('external-id', IDS, 'list-a', a.version);
    expect(bodies[2]?.since).toBeUndefined();
    expect(again.urls).toEqual(['u/other']);
  });
});
