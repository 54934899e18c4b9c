import { describe, expect, it } from 'vitest';
import { listen, listenProblem } from './start';

/** A proxy that is never asked anything: only the listening is under test. */
const idle = { fetch: () => new Response(''), closeStreams: () => undefined } as unknown as Parameters<
  typeof listen
>[0];

describe('listenProblem: a HOST that is no name this machine can look up', () => {
  it('ENOTFOUND (a misspelt name): one line naming HOST and what to set it to', async () => {
    const error: unknown = await listen(idle, 'nosuch.invalid', 0).then(
      (l) => l.close().then(() => new Error('listened')),
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe('ENOTFOUND');
    expect(listenProblem(error, 'PORT', 'nosuch.invalid', 8080)).toBe(
      'HOST=nosuch.invalid is not a name this machine can look up: cannot listen on it. ' +
        'Set HOST to an address of this machine (127.0.0.1, or 0.0.0.0 for every interface).',
    );
  });

  it('EAI_AGAIN (the name server did not answer): one line naming HOST, and that a retry may do', () => {
    const error = Object.assign(new Error('getaddrinfo EAI_AGAIN haulview.internal'), { code: 'EAI_AGAIN' });
    expect(listenProblem(error, 'PORT', 'haulview.internal', 8080)).toBe(
      'HOST=haulview.internal could not be looked up (the name server did not answer): cannot listen on it. ' +
        'Set HOST to an address of this machine (127.0.0.1, or 0.0.0.0 for every interface), or try again.',
    );
  });

  it('leaves failures it cannot explain to their stack trace', () => {
    expect(listenProblem(Object.assign(new Error('odd'), { code: 'EODD' }), 'PORT', '127.0.0.1', 8080)).toBe(
      undefined,
    );
  });
});
