import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { loadQueries } from '../../data/load-queries';
import { formatLoadParam, loadKey, parseLoadKey, parseLoadParam } from '../../lib/load-ref';
import { useUrlParam } from '../../lib/url-state';
import type { BoardRow } from './board-rows';

/**
 * The selected load, kept in the URL (`?load=e:700100`) so a reload or a link restores it: its row,
 * and its own track for the map's trail.
 */
export function useSelection(rows: readonly BoardRow[], refreshSeconds: number) {
  const [selectionText, setSelectionText] = useUrlParam('load');
  const selection = useMemo(() => parseLoadParam(selectionText), [selectionText]);
  const selectedKey = selection ? loadKey(selection) : null;
  const track = useQuery({
    ...loadQueries.detail(selection?.by ?? 'external-id', selection?.id ?? '', refreshSeconds),
    enabled: selection !== null,
  });
  // The selected load's own track: not the last load's, kept on screen while another one loads
  // (the detail query's placeholder), nor after the selection is closed.
  const selectedTrack = selection && !track.isPlaceholderData ? track.data : undefined;
  // Not a pass over 10,000 rows at each refresh when nothing is selected.
  const selectedRow = useMemo(
    () => (selectedKey === null ? undefined : rows.find((r) => r.key === selectedKey)),
    [rows, selectedKey],
  );
  /** From the map, which knows its points by key. */
  const select = useCallback(
    (key: string) => {
      const ref = parseLoadKey(key);
      if (ref) setSelectionText(formatLoadParam(ref));
    },
    [setSelectionText],
  );
  const selectRow = useCallback(
    (row: BoardRow) => setSelectionText(formatLoadParam(row.load)),
    [setSelectionText],
  );
  const close = useCallback(() => setSelectionText(null), [setSelectionText]);

  return {
    selection,
    selectedKey,
    selectedRow,
    /** Its track, once the answer for this load is in; undefined while it loads. */
    track: selectedTrack?.load,
    trackLoading: track.isPending || track.isPlaceholderData,
    trackFailed: track.isError,
    select,
    selectRow,
    close,
  };
}
