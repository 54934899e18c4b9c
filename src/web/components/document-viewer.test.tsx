import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Document } from '@/domain/model';
import { DocumentViewer, isPictureDocument, safeHttpUrl } from './document-viewer';

function doc(url: string, type: string | undefined, extra: Partial<Document> = {}): Document {
  return {
    key: url,
    instant: Date.parse('2026-11-22T10:30:00Z'),
    time: { instant: 0, approximate: false, local: '11/22/2026 04:30 CST', zone: 'CST', zoneKnown: true },
    url,
    type,
    stopExternalId: 'S1',
    stopOrderNumber: 1,
    position: undefined,
    place: { city: 'Omaha', state: 'NE', country: 'US' },
    driver: { name: 'Elena Smith', phone: undefined },
    ...extra,
  };
}

describe('safeHttpUrl', () => {
  it('accepts absolute http and https addresses, trimmed', () => {
    expect(safeHttpUrl('https://docs.example.com/bol.jpg')).toBe('https://docs.example.com/bol.jpg');
    expect(safeHttpUrl('  http://docs.example.com/a b.pdf \n')).toBe('http://docs.example.com/a%20b.pdf');
    expect(safeHttpUrl('HTTPS://Docs.Example.com/x')).toBe('https://docs.example.com/x');
  });

  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(document.cookie)',
    'java\tscript:alert(1)',
    '\u0000javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://files.example.com/bol.pdf',
    'blob:https://example.com/uuid',
    '//evil.example/bol.jpg',
    '/relative/path.jpg',
    'bol.jpg',
    '',
    '   ',
    'https://',
    'not a url',
  ])('refuses %j', (url) => {
    expect(safeHttpUrl(url)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeHttpUrl(null)).toBeNull();
    expect(safeHttpUrl(undefined)).toBeNull();
  });
});

describe('isPictureDocument', () => {
  it('knows pictures by type or by extension', () => {
    expect(isPictureDocument({ type: 'PICTURE', url: 'https://x.example/1' })).toBe(true);
    expect(isPictureDocument({ type: 'photo', url: 'https://x.example/1' })).toBe(true);
    expect(isPictureDocument({ type: 'BOL', url: 'https://x.example/bol.JPG?sig=1' })).toBe(true);
    expect(isPictureDocument({ type: 'POD', url: 'https://x.example/pod.pdf' })).toBe(false);
    expect(isPictureDocument({ type: undefined, url: 'https://x.example/scan' })).toBe(false);
  });
});

function Harness({
  documents,
  start = 0,
  onClose,
}: {
  documents: Document[];
  start?: number;
  onClose?: () => void;
}) {
  const [index, setIndex] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setIndex(start)}>
        Open viewer
      </button>
      {index !== null && (
        <DocumentViewer
          documents={documents}
          index={index}
          onIndexChange={setIndex}
          onClose={() => {
            setIndex(null);
            onClose?.();
          }}
        />
      )}
    </>
  );
}

const DOCS = [
  doc('https://docs.example.com/bol.jpg', 'BOL'),
  doc('https://docs.example.com/pod.pdf', 'POD', { stopOrderNumber: 2, stopExternalId: 'S2' }),
  doc('javascript:alert(1)', 'PICTURE'),
  doc('data:text/html,<script>alert(1)</script>', 'PHOTO'),
];

describe('DocumentViewer', () => {
  it('is a modal dialog that takes focus, steps with the arrow keys, closes on Escape and gives focus back', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Harness documents={DOCS} onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open viewer' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: /BOL/ });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(dialog).toHaveTextContent('(1 of 4)');
    expect(screen.getByRole('button', { name: /Previous/ })).toBeDisabled();

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: /POD/ })).toHaveTextContent('(2 of 4)');
    expect(screen.getByRole('dialog')).toHaveTextContent('stop 2 (S2)');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: /BOL/ })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: /BOL/ })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onClose).toHaveBeenCalledOnce();
    expect(opener).toHaveFocus();
  });

  it('keeps Tab inside the dialog', async () => {
    const user = userEvent.setup();
    render(<Harness documents={DOCS} />);
    await user.click(screen.getByRole('button', { name: 'Open viewer' }));
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 12; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    for (let i = 0; i < 12; i++) {
      await user.tab({ shift: true });
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('loads pictures lazily without a referrer and opens originals without an opener', async () => {
    const user = userEvent.setup();
    render(<Harness documents={DOCS} />);
    await user.click(screen.getByRole('button', { name: 'Open viewer' }));
    const img = screen.getByRole('img', { name: /BOL/ });
    expect(img).toHaveAttribute('src', 'https://docs.example.com/bol.jpg');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('referrerpolicy', 'no-referrer');
    for (const name of ['Open original', 'Download']) {
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('href', 'https://docs.example.com/bol.jpg');
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(img.style.transform).toBe('scale(1.5) rotate(0deg)');
    await user.click(screen.getByRole('button', { name: 'Rotate' }));
    expect(img.style.transform).toBe('scale(1.5) rotate(90deg)');
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(img.style.transform).toBe('scale(0.75) rotate(90deg)');
    // Another document starts upright at 100 %.
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('img', { name: /BOL/ }).style.transform).toBe('scale(1) rotate(0deg)');
  });

  it('shows a file that is no picture as a card with links', async () => {
    const user = userEvent.setup();
    render(<Harness documents={DOCS} start={1} />);
    await user.click(screen.getByRole('button', { name: 'Open viewer' }));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog')).toHaveTextContent(/not a picture/);
    expect(screen.getByRole('link', { name: 'Open original' })).toHaveAttribute(
      'href',
      'https://docs.example.com/pod.pdf',
    );
  });

  it.each([2, 3])('shows a hostile address (document %i) as inert text: no image, no link', async (start) => {
    const user = userEvent.setup();
    const { container } = render(<Harness documents={DOCS} start={start} />);
    await user.click(screen.getByRole('button', { name: 'Open viewer' }));
    const dialog = screen.getByRole('dialog');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent(/not a web address/);
    expect(dialog).toHaveTextContent(DOCS[start]!.url);
    for (const root of [container, document.body]) {
      expect(
        root.querySelector('[href^="javascript"], [href^="data"], [src^="javascript"], [src^="data"]'),
      ).toBeNull();
      expect(root.querySelector('script')).toBeNull();
    }
  });
});

describe('DocumentViewer, extended by its host', () => {
  it('shows the host’s controls and caption for the document shown, and hands it the keys it does not use', async () => {
    const user = userEvent.setup();
    const onShortcut = vi.fn((key: string) => key === 'r');
    const onAction = vi.fn();
    function Host() {
      const [index, setIndex] = useState(0);
      return (
        <DocumentViewer
          documents={DOCS}
          index={index}
          onIndexChange={setIndex}
          onClose={() => {}}
          caption={(d) => `Caption of ${d.type}`}
          actions={(d) => (
            <button type="button" onClick={() => onAction(d.url)}>
              Mark {d.type} reviewed
            </button>
          )}
          onShortcut={onShortcut}
        />
      );
    }
    render(<Host />);
    const dialog = screen.getByRole('dialog', { name: /BOL/ });
    expect(dialog).toHaveTextContent('Caption of BOL · stop 1 (S1)');
    await user.click(screen.getByRole('button', { name: 'Mark BOL reviewed' }));
    expect(onAction).toHaveBeenCalledWith('https://docs.example.com/bol.jpg');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Mark POD reviewed' })).toBeInTheDocument();
    // Keys the viewer uses stay its own; Ctrl combinations are left to the browser.
    expect(onShortcut).not.toHaveBeenCalled();
    await user.keyboard('r');
    expect(onShortcut).toHaveBeenLastCalledWith('r', DOCS[1]);
    await user.keyboard('{Control>}u{/Control}');
    expect(onShortcut).toHaveBeenCalledTimes(1);
    await user.keyboard('x');
    expect(onShortcut).toHaveBeenLastCalledWith('x', DOCS[1]);
    // Tab stays inside, through the host's controls too.
    for (let i = 0; i < 10; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });
});
