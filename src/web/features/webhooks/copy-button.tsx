import { useState, type RefObject } from 'react';

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the button's name: "Copy {label}". */
  label: string;
  /** The element showing the value: selected for copying by hand when the clipboard is unavailable. */
  source?: RefObject<HTMLElement | null>;
}

/** Copies one value to the clipboard, and says so; without a clipboard it selects the text instead. */
export function CopyButton({ value, label, source }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed' | 'selected'>('idle');

  async function copy() {
    // Missing outside secure contexts (plain http on another host) and in some embedded browsers.
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    try {
      if (!clipboard || typeof clipboard.writeText !== 'function') throw new Error('no clipboard');
      await clipboard.writeText(value);
      setState('copied');
    } catch {
      const element = source?.current;
      const selection = typeof window.getSelection === 'function' ? window.getSelection() : null;
      if (element && selection) {
        selection.selectAllChildren(element);
        setState('selected');
      } else {
        setState('failed');
      }
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={() => void copy()}
        // The visible word starts the name (WCAG "label in name"); the rest says what is copied.
        aria-label={`Copy ${label}`}
        className="rounded border border-panel-line px-2 py-0.5 text-xs hover:bg-panel-sunk"
      >
        Copy
      </button>
      <span
        role="status"
        className={state === 'copied' ? 'text-xs text-ink-muted' : 'text-xs text-status-silent'}
      >
        {state === 'copied' && 'Copied'}
        {state === 'selected' && 'Copying is not available here: the text is selected, press Ctrl+C (⌘C).'}
        {state === 'failed' && 'Copying is not available here: select the text and copy it by hand.'}
      </span>
    </span>
  );
}
