import { describe, expect, it } from 'vitest';
import { startStack } from '@/testing/stack';

describe('GET /api/ready', () => {
  it('answers 200 while the store answers, 503 store_unavailable when it does not', async () => {
    let storeUp = true;
    const stack = await startStack({
      loads: 1,
      storePing: async () => {
        if (!storeUp) throw new Error('connection terminated');
      },
    });
    try {
      const ready = await fetch(`${stack.proxy.url}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true });
      storeUp = false;
      const down = await fetch(`${stack.proxy.url}/api/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({
        error: { code: 'store_unavailable', message: 'the store does not answer' },
      });
      // Liveness is another question: the process is fine.
      expect((await fetch(`${stack.proxy.url}/api/health`)).status).toBe(200);
    } finally {
      await stack.close();
    }
  });

  it('needs no session when logins are required (a balancer asks it)', async () => {
    const stack = await startStack({
      loads: 1,
      // Not loopback: never open, so every other call needs a session.
      env: { HOST: '0.0.0.0' },
      storePing: async () => {},
    });
    try {
      expect((await fetch(`${stack.proxy.url}/api/ready`)).status).toBe(200);
      expect((await fetch(`${stack.proxy.url}/api/config`)).status).toBe(401);
    } finally {
      await stack.close();
    }
  });
});
