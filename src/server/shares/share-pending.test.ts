import { describe, expect, it } from 'vitest';
import { ShareCreated, ShareView } from '@/contract/share-api';
import { loginAs } from '@/testing/login';
import { manualClock, startStack } from '@/testing/stack';
import { openMigratedTestStore } from '@/testing/test-store';
import type { Puller } from '../puller/puller';

describe('a share link with tracks in the store', () => {
  it('says a load is pending until the puller’s first answer for it, then shows it', async () => {
    const clock = manualClock();
    const { store, close } = await openMigratedTestStore('pglite');
    const stack = await startStack({ loads: 3, now: clock.now, store, env: { TRACKS: 'store' } });
    try {
      const other = await stack.addInstance();
      const puller = stack.puller as Puller;
      expect(await puller.renew()).toBe('leader');
      const { cookie } = await loginAs(stack, store.db, 'broker', 'Bo Broker');
      const [plan] = stack.sim.fleet;
      const made = await stack.post(
        '/api/shares',
        {
          loads: [`e:${plan!.externalId}`, 'e:no-such-load'],
          shows: { map: true, status: true, stops: true, pod: false },
        },
        { Cookie: cookie },
      );
      expect(made.status, await made.clone().text()).toBe(201);
      const { token } = ShareCreated.parse(await made.json());
      const open = async () =>
        ShareView.parse(await (await fetch(`${other.proxy.url}/api/share/${token}?poll=1`)).json());

      // Neither is in the store yet: both are to come, neither is "not found".
      expect((await open()).loads).toEqual([
        { label: String(plan!.externalId), found: false, pending: true },
        { label: 'no-such-load', found: false, pending: true },
      ]);
      await puller.pull();
      // The service answered: the one it knows is shown, the one it does not is not found.
      const [known, unknown] = (await open()).loads;
      expect(known).toMatchObject({ label: String(plan!.externalId), found: true });
      expect(known).not.toHaveProperty('pending');
      expect(known?.status?.name).toEqual(expect.any(String));
      expect(unknown).toEqual({ label: 'no-such-load', found: false });
    } finally {
      await stack.close();
      await close();
    }
  }, 60_000);
});
