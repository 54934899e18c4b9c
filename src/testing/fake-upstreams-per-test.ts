import { afterEach } from 'vitest';
import { startFakeUpstream } from './fake-upstream';

/**
 * Fake upstreams for the tests of one file, each closed after the test that started it, with
 * anything else handed to `closeAfterTest`. Call it at the top of the file.
 */
export function fakeUpstreamsPerTest() {
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    while (closers.length) await closers.pop()?.();
  });
  return {
    fake: async (handler: Parameters<typeof startFakeUpstream>[0]) => {
      const upstream = await startFakeUpstream(handler);
      closers.push(upstream.close);
      return upstream;
    },
    closeAfterTest: (close: () => unknown) => void closers.push(close),
  };
}
