import type { ReactNode, Ref } from 'react';

const button =
  'rounded border border-panel-line bg-panel px-2 py-1 text-sm text-ink hover:bg-panel-sunk disabled:cursor-not-allowed disabled:opacity-40';

export interface DocumentViewerToolbarProps {
  titleId: string;
  title: string;
  /** The document shown (0-based) and how many there are. */
  shown: number;
  count: number;
  /** The zoom shown (1 = 100 %), and whether it can go out or in; undefined: not zoomable. */
  zoom: { value: number; canOut: boolean; canIn: boolean } | undefined;
  /** The document's address, when it may be opened. */
  safeUrl: string | null;
  /** More controls, before Close. */
  actions: ReactNode;
  closeButton: Ref<HTMLButtonElement>;
  onStep: (step: number) => void;
  onZoomStep: (step: number) => void;
  onRotate: () => void;
  onClose: () => void;
}

/** The document viewer's title and controls: previous and next, zoom and rotation, open, download, close. */
export function DocumentViewerToolbar({
  titleId,
  title,
  shown,
  count,
  zoom,
  safeUrl,
  actions,
  closeButton,
  onStep,
  onZoomStep,
  onRotate,
  onClose,
}: DocumentViewerToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-panel-line px-3 py-2">
      <h2 id={titleId} className="mr-auto text-base font-semibold">
        {title}{' '}
        <span className="font-normal text-ink-muted">
          ({shown + 1} of {count})
        </span>
      </h2>
      <button
        type="button"
        className={button}
        onClick={() => onStep(-1)}
        disabled={shown === 0}
        aria-keyshortcuts="ArrowLeft"
      >
        ‹ Previous
      </button>
      <button
        type="button"
        className={button}
        onClick={() => onStep(1)}
        disabled={shown === count - 1}
        aria-keyshortcuts="ArrowRight"
      >
        Next ›
      </button>
      {zoom && (
        <>
          <button
            type="button"
            className={button}
            onClick={() => onZoomStep(-1)}
            disabled={!zoom.canOut}
            aria-keyshortcuts="-"
          >
            Zoom out
          </button>
          <span className="w-12 text-center text-sm tabular-nums" aria-live="polite">
            {Math.round(zoom.value * 100)} %
          </span>
          <button
            type="button"
            className={button}
            onClick={() => onZoomStep(1)}
            disabled={!zoom.canIn}
            aria-keyshortcuts="+"
          >
            Zoom in
          </button>
          <button type="button" className={button} onClick={onRotate}>
            Rotate
          </button>
        </>
      )}
      {safeUrl && (
        <>
          <a href={safeUrl} target="_blank" rel="noopener noreferrer" className={button}>
            Open original
          </a>
          <a href={safeUrl} download target="_blank" rel="noopener noreferrer" className={button}>
            Download
          </a>
        </>
      )}
      {actions}
      <button ref={closeButton} type="button" className={button} onClick={onClose} aria-keyshortcuts="Escape">
        Close
      </button>
    </div>
  );
}
