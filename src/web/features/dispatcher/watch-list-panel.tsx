import { memo, useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { LoadBy } from '@/domain/model';
import { BY_NAME, LOAD_BYS, loadKey, type LoadRef } from '../../lib/load-ref';
import { kindOfPasted, parseIdText, watchList } from '../../lib/watch-list';
import { formatCount } from '../../lib/format';

export interface WatchListPanelProps {
  entries: LoadRef[];
  /** Ids the upstream does not know (the proxy's `missing`), per kind. */
  notFound: LoadRef[];
  maxIds: number;
  /** Beside the title: the saved boards' menu (the page's, so the panel needs no store of its own). */
  menu?: ReactNode;
}

/** A radio button's label: "External id". */
const byLabel = (by: LoadBy) => BY_NAME[by].charAt(0).toUpperCase() + BY_NAME[by].slice(1);

/**
 * Add loads by external id or load number, one or many pasted at once; remove one, clear all. Malformed
 * ids are refused with the reason; ids the service does not know are not counted as watched: they are
 * listed as "not found", each with a ×, and all removed in one click.
 */
// Memoized: the dispatcher renders again at each refresh and each fetch's start and end.
export const WatchListPanel = memo(function WatchListPanel({
  entries,
  notFound,
  maxIds,
  menu,
}: WatchListPanelProps) {
  const [text, setText] = useState('');
  const [by, setBy] = useState<LoadBy>('external-id');
  const [refused, setRefused] = useState<{ text: string; reason: string }[]>([]);
  const [added, setAdded] = useState<{ added: number; already: number; switched: number } | null>(null);
  // What a link (`?w=`) named that the board could not take: more ids than it holds, or none it reads.
  const [linkNote, setLinkNote] = useState<string | null>(null);
  useEffect(() => {
    if (watchList.takeLinkUnread())
      setLinkNote('The link’s watch list names no load id Haulview can read: nothing was added from it.');
  }, []);
  useEffect(() => {
    const dropped = watchList.keepAtMost(maxIds);
    if (!dropped) return;
    const words = LOAD_BYS.flatMap((kind) =>
      dropped[kind] ? [`${formatCount(dropped[kind])} ${BY_NAME[kind]}s`] : [],
    );
    setLinkNote(
      `The board holds at most ${formatCount(maxIds)} ids of one kind: the first are watched, ${words.join(' and ')} left out.`,
    );
  }, [entries, maxIds]);
  const inputId = useId();
  const refusedId = useId();
  const formId = useId();
  // Folded to one line while loads are watched, so the board's rows get the room; unfolded by its
  // button, and kept open once ids were added with it (the form stays where it was used). Never
  // folded while the list is empty.
  const [unfolded, setUnfolded] = useState(false);
  const open = unfolded || entries.length === 0;
  // Only loads the service knows count as watched; the others are listed below as not found.
  // Only those still watched: one just removed stays in the last answer until the next one comes,
  // and a list emptied is not pulled again at all.
  const unknown = useMemo(() => {
    if (notFound.length === 0) return notFound;
    const watchedKeys = new Set(entries.map(loadKey));
    return notFound.filter((e) => watchedKeys.has(loadKey(e)));
  }, [entries, notFound]);
  const known = entries.length - unknown.length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setUnfolded(true);
    const parsed = parseIdText(text);
    const overflow: { text: string; reason: string }[] = [];
    let addedCount = 0;
    let already = 0;
    let switched = 0;
    // A mixed column: each id to its kind where its form says (kindOfPasted), else to the one chosen.
    for (const kind of LOAD_BYS) {
      const ids = parsed.ids.filter((id) => kindOfPasted(id, by) === kind);
      if (ids.length === 0) continue;
      if (kind !== by) switched += ids.length;
      // Ids already watched are neither added again nor counted against the room left.
      const watched = new Set(entries.flatMap((e) => (e.by === kind ? [e.id] : [])));
      const fresh = ids.filter((id) => !watched.has(id));
      const room = Math.max(0, maxIds - watched.size);
      overflow.push(
        ...fresh
          .slice(room)
          .map((id) => ({ text: id, reason: `the board holds at most ${maxIds} ids of one kind` })),
      );
      addedCount += watchList.add(kind, fresh.slice(0, room));
      already += ids.length - fresh.length;
    }
    setRefused([...parsed.refused, ...overflow]);
    setAdded({ added: addedCount, already, switched });
    if (parsed.refused.length === 0 && overflow.length === 0) setText('');
  };

  const title = (
    <>
      Watch loads{' '}
      <span className="font-normal text-ink-muted">
        ({formatCount(known)} watched{unknown.length > 0 && ` · ${formatCount(unknown.length)} not found`})
      </span>
    </>
  );

  return (
    <section
      aria-label="Watch list"
      className={`space-y-2 border-b border-panel-line bg-panel px-2 text-sm ${open ? 'py-2' : 'py-1'}`}
    >
      <div className="flex items-center gap-2">
        {/* The text box's label while it shows; the count alone while the form is folded. */}
        {open ? (
          <label htmlFor={inputId} className="block font-medium">
            {title}
          </label>
        ) : (
          <h2 className="font-medium">{title}</h2>
        )}
        {menu}
        {entries.length > 0 && (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={formId}
            onClick={() => setUnfolded(!open)}
            className="rounded border border-panel-line px-2 py-0.5 text-xs hover:bg-panel-sunk"
          >
            {open ? 'Hide' : 'Add or clear loads'}
          </button>
        )}
      </div>
      <form id={formId} onSubmit={submit} className="space-y-2" hidden={!open}>
        <textarea
          id={inputId}
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
          }}
          placeholder="Paste ids: one, or many separated by commas, spaces or new lines"
          aria-describedby={refused.length > 0 ? refusedId : undefined}
          className="block w-full resize-y rounded border border-panel-line px-2 py-1 font-mono text-xs"
        />
        <div className="flex flex-wrap items-center gap-2">
          <fieldset className="flex gap-2">
            <legend className="sr-only">The ids are</legend>
            {LOAD_BYS.map((value) => (
              <label key={value} className="flex items-center gap-1">
                <input
                  type="radio"
                  name="by"
                  value={value}
                  checked={by === value}
                  onChange={() => setBy(value)}
                />
                {byLabel(value)}
              </label>
            ))}
          </fieldset>
          <button
            type="submit"
            disabled={text.trim() === ''}
            className="ml-auto rounded bg-status-selected px-3 py-1 font-medium text-white disabled:opacity-50"
          >
            Add
          </button>
          {entries.length > 0 && (
            <button
              type="button"
              onClick={() => {
                if (window.confirm(`Stop watching all ${formatCount(entries.length)} loads?`))
                  watchList.clear();
              }}
              className="rounded border border-panel-line px-2 py-1 hover:bg-panel-sunk"
            >
              Clear all
            </button>
          )}
        </div>
        <p role="status" className="text-xs text-ink-muted">
          {added !== null &&
            `${formatCount(added.added)} added.${added.already > 0 ? ` ${formatCount(added.already)} already watched.` : ''}${
              added.switched > 0
                ? ` ${formatCount(added.switched)} read as load numbers: not all digits, so not external ids.`
                : ''
            }`}
        </p>
      </form>
      {linkNote && (
        <p
          role="status"
          className="flex items-start gap-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900"
        >
          {linkNote}
          <button
            type="button"
            onClick={() => setLinkNote(null)}
            className="ml-auto rounded border border-panel-line bg-panel px-1.5 hover:bg-panel-sunk"
          >
            OK
          </button>
        </p>
      )}
      {refused.length > 0 && (
        <div
          id={refusedId}
          role="alert"
          className="rounded border border-red-300 bg-red-50 p-2 text-xs text-red-900"
        >
          <p className="font-semibold">Not added:</p>
          <ul className="list-disc pl-4">
            {refused.map((r, i) => (
              <li key={i}>
                <code className="break-all">{r.text.length > 40 ? `${r.text.slice(0, 40)}…` : r.text}</code>:{' '}
                {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {unknown.length > 0 && (
        <div className="rounded border border-amber-300 bg-amber-50 p-2 text-xs text-amber-950">
          <div className="flex items-center gap-2">
            <p className="font-semibold">Not found by the tracking service ({unknown.length}):</p>
            <button
              type="button"
              onClick={() => watchList.removeAll(unknown)}
              className="ml-auto rounded border border-amber-400 bg-white px-2 py-0.5 hover:bg-amber-100"
            >
              {unknown.length === 1 ? 'Remove it' : `Remove all ${formatCount(unknown.length)}`}
            </button>
          </div>
          <ul className="mt-1 flex flex-wrap gap-1">
            {unknown.map((e) => (
              <li key={loadKey(e)} className="flex items-center gap-1 rounded bg-white px-1.5 py-0.5">
                <span>
                  {e.id} <span className="text-ink-muted">({BY_NAME[e.by]})</span>
                </span>
                <button
                  type="button"
                  aria-label={`Stop watching ${e.id} (${BY_NAME[e.by]})`}
                  onClick={() => watchList.remove(e)}
                  className="px-1 text-ink-muted hover:text-ink"
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
});
