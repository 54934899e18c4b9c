import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** A stream refused (a restart, a login that ended) is asked again this long after. */
const RETRY_MS = 15_000;

/**
 * The live stream while it is mounted (the logged-in app renders it once). Its code comes after the
 * first page has drawn: the views poll anyway, and a change matters only once there is a view.
 */
export function LiveStream(): null {
  const client = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let unmounted = false;
    import('../data/live-stream').then(
      (m) => {
        if (!unmounted) stop = m.startLiveStream(client, { retryMs: RETRY_MS });
      },
      // Its chunk did not come (a deploy meanwhile, the network): the views keep polling.
      () => undefined,
    );
    return () => {
      unmounted = true;
      stop?.();
    };
  }, [client]);
  return null;
}
