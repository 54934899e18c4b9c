/**
 * Shows a 2D canvas through a copy of its pixels in a `bitmaprenderer` canvas laid over it.
 *
 * Chromium hands a visible 2D canvas's pixels to the compositor again at each commit of the page,
 * whether or not anything drew on it; a bitmap shown by a `bitmaprenderer` context is handed over
 * once per `transferFromImageBitmap`. A canvas drawn seldom on a page that commits in every frame
 * (a chart beside a replay that plays) costs a copy per frame without it, one per draw with it.
 *
 * `update()` after each draw; until the first copy is shown, the source stays visible. Returns
 * undefined where the browser has no `bitmaprenderer` or `createImageBitmap` (the source is left as it is).
 */
export function mirrorCanvas(
  source: HTMLCanvasElement,
): { update: () => void; remove: () => void } | undefined {
  if (typeof createImageBitmap !== 'function') return undefined;
  const shown = document.createElement('canvas');
  const context = shown.getContext('bitmaprenderer');
  if (!context) return undefined;
  shown.setAttribute('aria-hidden', 'true');
  shown.style.position = 'absolute';
  shown.style.left = '0';
  shown.style.top = '0';
  shown.style.pointerEvents = 'none';
  // Just after the source: what the page lays over the source stays over the copy.
  source.after(shown);
  // A draw whose copy is still being made when the next draw comes is dropped.
  let latest = 0;
  let removed = false;
  return {
    update() {
      const mine = ++latest;
      createImageBitmap(source).then(
        (bitmap) => {
          if (removed || mine !== latest) {
            bitmap.close();
            return;
          }
          shown.width = source.width;
          shown.height = source.height;
          shown.style.width = source.style.width || `${source.clientWidth}px`;
          shown.style.height = source.style.height || `${source.clientHeight}px`;
          context.transferFromImageBitmap(bitmap);
          source.style.visibility = 'hidden';
        },
        // A canvas of no size cannot be copied: it shows as it is.
        () => {
          source.style.visibility = '';
        },
      );
    },
    remove() {
      removed = true;
      shown.remove();
      source.style.visibility = '';
    },
  };
}
