import type { ServerResponse } from 'node:http';
import { json, startFakeUpstream } from '@/testing/fake-upstream';

/** The picture a fake service serves for any `/docs/…` address. */
const DOC_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><rect width="200" height="120" fill="#eee"/><text x="10" y="60">BOL</text></svg>`;

/**
 * A fake tracking service for a spec's own stack: a pull by external id gets `answer(its own base
 * URL)` (documents' addresses are under it), any other pull an empty answer, and `/docs/…` a picture.
 */
export async function startServiceWithDocs(
  answer: (baseUrl: string) => unknown,
): Promise<Awaited<ReturnType<typeof startFakeUpstream>>> {
  const upstream = await startFakeUpstream((req, res: ServerResponse) => {
    if (req.url.startsWith('/docs/')) {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      res.end(DOC_SVG);
    } else if (req.url.startsWith('/loadtrackservice/getLoadTrackDetailsServiceV2'))
      json(res, 200, answer(upstream.url));
    else json(res, 200, { status: true, timeStamp: new Date().toISOString(), details: [] });
  });
  return upstream;
}
