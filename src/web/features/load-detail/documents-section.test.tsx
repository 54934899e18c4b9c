import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DocumentReview } from '@/contract/review-api';
import type { Document } from '@/domain/model';
import { testTime } from '@/testing/loads';
import { DOCUMENTS_PAGE, DocumentsGrid } from './documents-section';

const doc = (n: number): Document => ({
  key: `https://docs.example/${n}.jpg`,
  url: `https://docs.example/${n}.jpg`,
  instant: 1_000_000 - n,
  time: testTime(1_000_000 - n),
  type: n === 0 ? 'POD' : 'PICTURE',
  stopExternalId: undefined,
  stopOrderNumber: undefined,
  position: undefined,
  place: undefined,
  driver: undefined,
});

describe('DocumentsGrid', () => {
  it('shows the newest page of many documents, then more or all on request; opening keeps the index', async () => {
    const documents = Array.from({ length: DOCUMENTS_PAGE * 2 + 5 }, (_, n) => doc(n));
    const onOpen = vi.fn();
    const user = userEvent.setup();
    render(<DocumentsGrid documents={documents} fresh={new Set()} onOpen={onOpen} />);
    const cards = () => screen.getAllByRole('listitem');
    expect(cards()).toHaveLength(DOCUMENTS_PAGE);
    expect(within(cards()[0]!).getByText('POD')).toBeInTheDocument();
    expect(screen.getByText(`${DOCUMENTS_PAGE + 5} older not shown.`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Show ${DOCUMENTS_PAGE} more` }));
    expect(cards()).toHaveLength(DOCUMENTS_PAGE * 2);
    expect(screen.getByRole('button', { name: 'Show 5 more' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Show all ${documents.length}` }));
    expect(cards()).toHaveLength(documents.length);
    expect(screen.queryByText(/older not shown/)).toBeNull();
    // The last card opens the viewer at its place in the whole list.
    await user.click(within(cards().at(-1)!).getByRole('button', { name: /^Open / }));
    expect(onOpen).toHaveBeenCalledWith(documents.length - 1);
  });

  it('shows every document of a load with few, without the buttons', () => {
    render(<DocumentsGrid documents={[doc(0), doc(1)]} fresh={new Set()} onOpen={() => {}} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /^Show/ })).toBeNull();
  });

  it('says each document’s review: approved, rejected and why, or to review, with who and when', () => {
    const review = (n: number, over: Partial<DocumentReview>): DocumentReview => ({
      load: 'e:9001',
      url: doc(n).url,
      decision: 'approved',
      reason: null,
      note: null,
      decidedBy: 'Ana',
      decidedAt: '2026-11-22T14:05:00.000Z',
      version: 1,
      replaced: null,
      ...over,
    });
    const reviews = new Map([
      [doc(0).url, review(0, {})],
      [doc(1).url, review(1, { decision: 'rejected', reason: 'unsigned', note: 'page 2', decidedBy: 'Bo' })],
      [doc(2).url, review(2, { decision: 'pending', decidedBy: 'Bo' })],
    ]);
    render(
      <DocumentsGrid
        documents={[0, 1, 2, 3].map(doc)}
        fresh={new Set()}
        onOpen={() => {}}
        reviews={reviews}
      />,
    );
    const [approved, rejected, undone, none] = screen.getAllByRole('listitem');
    expect(approved).toHaveTextContent(/✓ Approved by Ana, Nov 22, \d\d:05/);
    expect(rejected).toHaveTextContent(/✗ Rejected: unsigned by Bo, Nov 22/);
    expect(rejected).toHaveTextContent('“page 2”');
    expect(undone).toHaveTextContent('To review');
    expect(undone).not.toHaveTextContent('by Bo');
    expect(none).toHaveTextContent('To review');
  });

  it('says nothing of reviews while they cannot be read', () => {
    render(<DocumentsGrid documents={[doc(0)]} fresh={new Set()} onOpen={() => {}} />);
    expect(screen.getByRole('listitem')).not.toHaveTextContent(/To review|Approved/);
  });
});
