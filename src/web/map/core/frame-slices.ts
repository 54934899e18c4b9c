/** Milliseconds of one frame that adding and removing markers may take. */
const SLICE_MS = 6;

/**
 * Applies a redraw's changes a slice per frame, each slice in SLICE_MS: zooming in from the clusters
 * adds thousands of markers, and Leaflet's work per layer would make the frame that ends the zoom
 * long. A new run drops what the last one had left. `hold(true)` is called when a run goes on into
 * another frame and `hold(false)` when it ends or is dropped, so that what the slices change can be
 * drawn once, after the last (see `deferRedraws`), not once in every frame of the run.
 */
export class FrameSlices {
  private frame = 0;
  private holding = false;

  constructor(private readonly hold: (on: boolean) => void = () => {}) {}

  run<T>(changes: readonly T[], apply: (change: T) => void, done: () => void): void {
    let next = 0;
    const slice = () => {
      this.frame = 0;
      const until = performance.now() + SLICE_MS;
      for (; next < changes.length; next++) {
        if ((next & 63) === 0 && performance.now() > until) {
          this.held(true);
          this.frame = requestAnimationFrame(slice);
          return;
        }
        apply(changes[next] as T);
      }
      this.held(false);
      done();
    };
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    slice();
  }

  cancel(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.held(false);
  }

  private held(on: boolean): void {
    if (this.holding === on) return;
    this.holding = on;
    this.hold(on);
  }
}
