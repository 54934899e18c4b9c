/**
 * What the peer pages of the map bench share (bench/map-peers.ts serves them; never part of the app):
 * the answer they read, the marks the bench waits for, and the refresh the bench calls.
 *
 * Each peer reads the same answer Haulview's board gets (`ProxyPullAnswer`), with `JSON.parse` and
 * nothing else: the cheapest read a team would write, so the peers are not charged for a schema.
 */
import 'leaflet/dist/leaflet.css';

/** A load as a peer needs it: where it is and how sure that is. */
export interface PeerLoad {
  id: string;
  lat: number;
  lon: number;
  /** Meters; null when the answer gives none (no circle is drawn). */
  accuracy: number | null;
}

interface AnswerLoad {
  id: string;
  latestLocation?: { lat: number; lon: number; accuracy: number | null };
}

declare global {
  interface Window {
    /** Set by the peer once it can take a refresh: fetches `/delta.json` and moves its loads. */
    __peer?: { refresh: () => Promise<void> };
  }
}

/** The loads of an answer that have a position, in the answer's order. */
export function located(text: string): PeerLoad[] {
  const answer = JSON.parse(text) as { loads: AnswerLoad[] };
  const out: PeerLoad[] = [];
  for (const load of answer.loads) {
    const at = load.latestLocation;
    if (at) out.push({ id: load.id, lat: at.lat, lon: at.lon, accuracy: at.accuracy });
  }
  return out;
}

async function fetchLoads(path: string): Promise<PeerLoad[]> {
  const response = await fetch(path, { cache: 'no-store' });
  return located(await response.text());
}

/**
 * Marks `haulview:markers-drawn` once what was just drawn is on screen, as the app does
 * (src/web/lib/perf-marks.ts): after the next animation frame and the rendering that follows it.
 */
export function markDrawn(points: number): void {
  requestAnimationFrame(() =>
    setTimeout(() => {
      performance.clearMarks('haulview:markers-drawn');
      performance.mark('haulview:markers-drawn', { detail: { points } });
    }, 0),
  );
}

/**
 * Runs a peer: `draw` gets the first answer's loads, `move` each refresh's moved loads; each calls
 * markDrawn when its work is on screen.
 */
export async function runPeer(peer: {
  draw: (loads: PeerLoad[]) => void;
  move: (moved: PeerLoad[]) => void;
}): Promise<void> {
  peer.draw(await fetchLoads('/answer.json'));
  window.__peer = { refresh: async () => peer.move(await fetchLoads('/delta.json')) };
}
