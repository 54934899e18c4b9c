import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Document } from '@/domain/model';
import { itemTimeWords } from '../lib/time-format';
import { typing } from '../lib/typing';
import { useTimeZoneChoice } from '../lib/time-zone-choice';
import { DocumentViewerToolbar } from './document-viewer-toolbar';
import { trapTab, useModalFocus } from './modal-focus';

/**
 * The address of a document as something the browser may load or open: an absolute `http:` or
 * `https:` URL (after trimming), written out by `URL`; null for anything else (`javascript:`,
 * `data:`, `//host` without a scheme, text that is no URL). Document addresses come from drivers'
 * phones through a third party, so they are untrusted: only what passes here becomes a link or image.
 */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const text = url.trim();
  if (text === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.hostname === '') return null;
  return parsed.href;
}

const IMAGE_EXTENSION = /\.(?:jpe?g|png|gif|webp|avif|bmp|svg|heic|heif|tiff?)$/i;
const PICTURE_TYPES = new Set(['PICTURE', 'PHOTO', 'IMAGE']);

/** Whether a document is a picture: its type says so, or its address ends with an image extension. */
export function isPictureDocument(doc: Pick<Document, 'type' | 'url'>): boolean {
  if (doc.type !== undefined && PICTURE_TYPES.has(doc.type.trim().toUpperCase())) return true;
  const safe = safeHttpUrl(doc.url);
  const path = safe ? new URL(safe).pathname : doc.url.split(/[?#]/)[0];
  return IMAGE_EXTENSION.test(path ?? '');
}

/** "BOL", else "Document": a document type as a person reads it. */
export function documentTitle(doc: Pick<Document, 'type'>): string {
  return doc.type ?? 'Document';
}

/** "stop 1 (S7001-1)", "stop S7001-1", or undefined. */
export function documentStop(doc: Pick<Document, 'stopOrderNumber' | 'stopExternalId'>): string | undefined {
  if (doc.stopOrderNumber !== undefined && doc.stopExternalId !== undefined)
    return `stop ${doc.stopOrderNumber} (${doc.stopExternalId})`;
  if (doc.stopOrderNumber !== undefined) return `stop ${doc.stopOrderNumber}`;
  if (doc.stopExternalId !== undefined) return `stop ${doc.stopExternalId}`;
  return undefined;
}

/** "Omaha, NE, US", or undefined. */
export function documentPlace(doc: Pick<Document, 'place'>): string | undefined {
  const p = doc.place;
  if (!p) return undefined;
  return [p.city, p.state, p.country].filter(Boolean).join(', ') || undefined;
}

/** The longest an untrusted address is shown as text. */
const SHOWN_URL_CHARS = 300;

/**
 * What stands for a document in a list: the picture itself (lazily, without a referrer) when it is a
 * picture at a web address, else a card with its type. `unsafeNote` says so when the address is not one;
 * `eager` for a picture always in view (a preview), which lazy loading would hold back a frame.
 */
export function DocumentThumbnail({
  doc,
  unsafeNote = false,
  eager = false,
}: {
  doc: Document;
  unsafeNote?: boolean;
  eager?: boolean;
}) {
  const safe = safeHttpUrl(doc.url);
  const picture = isPictureDocument(doc);
  if (safe && picture) {
    return (
      <img
        src={safe}
        alt=""
        loading={eager ? 'eager' : 'lazy'}
        referrerPolicy="no-referrer"
        className="max-h-full max-w-full object-contain"
      />
    );
  }
  return (
    <span className="flex flex-col items-center gap-1 px-1 text-center text-xs">
      <span aria-hidden="true" className="text-2xl">
        {picture ? '🖼' : '▤'}
      </span>
      <span className="font-semibold">{documentTitle(doc)}</span>
      {unsafeNote && !safe && (
        <span className="text-status-silent">Address not a web address: not opened</span>
      )}
    </span>
  );
}

export function UnsafeAddress({ url }: { url: string }) {
  const shown = url.length > SHOWN_URL_CHARS ? `${url.slice(0, SHOWN_URL_CHARS)}…` : url;
  return (
    <span className="text-sm">
      <span className="font-semibold">Not opened:</span> its address is not a web address (http or https)
      <code className="mt-1 block max-w-full overflow-hidden text-xs break-all text-ink-muted">
        {shown || '(empty)'}
      </code>
    </span>
  );
}

export interface DocumentViewerProps {
  /** The documents one can step through, in the order shown. */
  documents: readonly Document[];
  /** The one shown now. */
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** More controls for the document shown, in the toolbar before Close (the inbox's "Mark reviewed"). */
  actions?: (doc: Document) => ReactNode;
  /**
   * A key the viewer does not use itself, pressed without Ctrl, Alt or Meta: return true when it was
   * handled (the inbox's r / u / j / k).
   */
  onShortcut?: (key: string, doc: Document) => boolean;
  /** Said first in the line under the document ("Load 700100"). */
  caption?: (doc: Document) => string | undefined;
}

const ZOOMS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4] as const;
const DEFAULT_ZOOM = ZOOMS.indexOf(1);
/**
 * A modal viewer of uploaded documents and pictures: zoom, rotate, previous/next (arrow keys too),
 * open the original, download. Focus stays inside while it is open, Escape closes it, and focus
 * goes back where it was. Only `http(s)` addresses are loaded or linked (`safeHttpUrl`); images load
 * lazily without a referrer, links open in a new tab without an opener.
 */
export function DocumentViewer({
  documents,
  index,
  onIndexChange,
  onClose,
  actions,
  onShortcut,
  caption,
}: DocumentViewerProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const count = documents.length;
  const shown = Math.min(Math.max(0, index), count - 1);
  const doc = documents[shown];
  // Zoom and rotation belong to one document: another one starts at 100 %, upright.
  const [view, setView] = useState({ url: doc?.url, zoom: DEFAULT_ZOOM, rotation: 0 });
  if (view.url !== doc?.url) setView({ url: doc?.url, zoom: DEFAULT_ZOOM, rotation: 0 });
  const zoomIndex = view.url === doc?.url ? view.zoom : DEFAULT_ZOOM;
  const rotation = view.url === doc?.url ? view.rotation : 0;
  const [failed, setFailed] = useState<string | null>(null);
  const zone = useTimeZoneChoice();

  const safe = doc ? safeHttpUrl(doc.url) : null;
  const picture = doc ? isPictureDocument(doc) : false;
  const zoomable = picture && safe !== null;
  const setZoom = (z: number) =>
    setView({ url: doc?.url, zoom: Math.max(0, Math.min(ZOOMS.length - 1, z)), rotation });
  const rotate = () => setView({ url: doc?.url, zoom: zoomIndex, rotation: (rotation + 90) % 360 });
  const go = (step: number) => {
    const next = shown + step;
    if (next >= 0 && next < count) onIndexChange(next);
  };

  // Keys are read on the whole document while the viewer is open: it is modal, and focus may sit on
  // the page's body for a moment when the control that held it goes away (no zoom for a PDF).
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      // The page's own use of Escape first (a rejection waiting for its reason is cancelled); the
      // next Escape closes.
      if (!(doc && onShortcut?.('Escape', doc))) onClose();
    } else if (event.key === 'Tab') {
      trapTab(event, dialog.current);
    } else if (typing(event.target)) {
      // A rejection's note: its letters and digits are the note's, not shortcuts.
      return;
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      go(event.key === 'ArrowLeft' ? -1 : 1);
    } else if (zoomable && (event.key === '+' || event.key === '=')) {
      setZoom(zoomIndex + 1);
    } else if (zoomable && event.key === '-') {
      setZoom(zoomIndex - 1);
    } else if (
      doc &&
      onShortcut &&
      !event.ctrlKey &&
      !event.altKey &&
      !event.metaKey &&
      onShortcut(event.key, doc)
    ) {
      event.preventDefault();
    }
  });

  useModalFocus(dialog, closeButton);
  useEffect(() => {
    const keys = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', keys);
    return () => document.removeEventListener('keydown', keys);
  }, []);

  // Stepping to a document without the control that had focus (no zoom for a PDF) leaves focus on
  // the page's body: it goes back to the dialog, so that screen readers stay inside.
  useEffect(() => {
    const box = dialog.current;
    if (box && !box.contains(document.activeElement)) box.focus();
  }, [shown]);

  if (!doc) return null;

  const zoom = ZOOMS[zoomIndex] ?? 1;
  const stop = documentStop(doc);
  const place = documentPlace(doc);
  const uploader = doc.driver?.name;
  const meta = [
    caption?.(doc),
    stop,
    doc.instant === null
      ? 'upload time unknown'
      : `uploaded ${itemTimeWords(doc.time, doc.instant, zone).text}`,
    uploader ? `by ${uploader}` : undefined,
    place ? `at ${place}` : undefined,
  ].filter(Boolean);

  return createPortal(
    <div className="fixed inset-0 z-[2000] flex items-center justify-center bg-black/70 p-4">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="flex max-h-full w-full max-w-5xl flex-col rounded bg-panel shadow-xl focus:outline-none"
      >
        <DocumentViewerToolbar
          titleId={titleId}
          title={documentTitle(doc)}
          shown={shown}
          count={count}
          zoom={
            zoomable ? { value: zoom, canOut: zoomIndex > 0, canIn: zoomIndex < ZOOMS.length - 1 } : undefined
          }
          safeUrl={safe}
          actions={actions?.(doc)}
          closeButton={closeButton}
          onStep={go}
          onZoomStep={(step) => setZoom(zoomIndex + step)}
          onRotate={rotate}
          onClose={onClose}
        />
        <div className="flex min-h-[50vh] flex-1 items-center justify-center overflow-auto bg-panel-sunk p-4">
          {!safe ? (
            <UnsafeAddress url={doc.url} />
          ) : picture && failed !== safe ? (
            <img
              key={safe}
              src={safe}
              alt={`${documentTitle(doc)}${stop ? `, ${stop}` : ''}`}
              loading="lazy"
              referrerPolicy="no-referrer"
              onError={() => setFailed(safe)}
              style={{ transform: `scale(${zoom}) rotate(${rotation}deg)` }}
              className="max-h-[70vh] max-w-full origin-center object-contain transition-transform"
            />
          ) : (
            <p className="max-w-md text-center text-sm">
              {picture
                ? 'The picture could not be loaded here. Open the original to try in a new tab.'
                : 'This file is not a picture, so it is not shown here. Open the original or download it.'}
            </p>
          )}
        </div>
        <p className="border-t border-panel-line px-3 py-2 text-sm text-ink-muted">{meta.join(' · ')}</p>
      </div>
    </div>,
    document.body,
  );
}
