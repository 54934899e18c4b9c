import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CREATED_WEBHOOKS_KEY,
  clearCreatedWebhooks,
  readCreatedWebhooks,
  recordCreatedWebhook,
} from './created-webhooks-log';

const entry = (uuid: string) => ({
  uuid,
  eventType: 'PdvRequestCompleted',
  clientUrl: `https://${uuid}.example`,
  createdAt: '2026-01-01T00:00:00.000Z',
});

beforeEach(() => localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('the local log of created webhooks', () => {
  it('keeps the newest first, each uuid once, and only the four fields', () => {
    recordCreatedWebhook(entry('a'));
    recordCreatedWebhook(entry('b'));
    recordCreatedWebhook({ ...entry('a'), token: 'secret' } as ReturnType<typeof entry>);
    expect(readCreatedWebhooks().entries.map((e) => e.uuid)).toEqual(['a', 'b']);
    expect(localStorage.getItem(CREATED_WEBHOOKS_KEY)).not.toContain('secret');
  });

  it('returns the same snapshot while nothing changed', () => {
    recordCreatedWebhook(entry('a'));
    expect(readCreatedWebhooks()).toBe(readCreatedWebhooks());
  });

  it('survives what another hand left in storage', () => {
    localStorage.setItem(CREATED_WEBHOOKS_KEY, '{not json');
    expect(readCreatedWebhooks().entries).toEqual([]);
    localStorage.setItem(CREATED_WEBHOOKS_KEY, JSON.stringify([entry('a'), { uuid: 1 }, null, entry('b')]));
    expect(readCreatedWebhooks().entries.map((e) => e.uuid)).toEqual(['a', 'b']);
    clearCreatedWebhooks();
    expect(localStorage.getItem(CREATED_WEBHOOKS_KEY)).toBeNull();
  });

  it('says so when the browser refuses to save', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    recordCreatedWebhook(entry('a'));
    expect(readCreatedWebhooks().problem).toMatch(/did not let Haulview save/);
  });
});
