/** One Server-Sent Event as a browser's EventSource reads it. */
export interface SseEvent {
  event: string;
  id: string | undefined;
  data: string;
}

/**
 * Reads a `text/event-stream` answer event by event (comments skipped), for tests of
 * `GET /api/stream`: `next()` resolves with the next event, or undefined once the stream ended.
 */
export function sseReader(response: Response) {
  const body = response.body;
  if (!body) throw new Error('the answer has no body');
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const ready: SseEvent[] = [];
  let ended = false;

  const parse = () => {
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':') || line === '') continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) ready.push({ event, id, data: data.join('\n') });
    }
  };

  return {
    async next(): Promise<SseEvent | undefined> {
      while (ready.length === 0 && !ended) {
        const { value, done } = await reader.read();
        if (done) ended = true;
        else {
          buffer += value;
          parse();
        }
      }
      return ready.shift();
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
