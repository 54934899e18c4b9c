/** Milliseconds of one frame that adding and removing markers may take. */
const SLICE_MS = 6;

/**
 * Applies a redraw's changes a slice per frame, each slice in SLICE_MS: zooming in from the clusters
 * adds thousands of markers, and Leaflet's work per layer would make the frame that ends the zoom
 * long. A new run drops what the last one had left.
 */
export class FrameSlices {
  private frame = 0;

  run<T>(changes: readonly T[], apply: (change: T) => void, done: () => void): void {
    let next = 0;
    const slice = () => {
      this.frame = 0;
      const until = performance.now() + SLICE_MS;
      for (; next < changes.length; next++) {
        if ((next & 63) === 0 && performance.now() > until) {
          this.frame = requestAnimationFrame(slice);
          return;
        }
        apply(changes[next] as T);
      }
      done();
    };
    this.cancel();
    slice();
  }

  cancel(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }
}
