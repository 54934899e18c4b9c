import { act, fireEvent, render } from '@testing-library/react';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useDismiss } from './use-dismiss';

function Popover({ location, withBox = true }: { location: string; withBox?: boolean }) {
  const [open, setOpen] = useState(true);
  const button = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useDismiss(open, setOpen, { button, box: withBox ? box : undefined, location });
  return (
    <div>
      <div ref={box}>
        <button ref={button} onClick={() => setOpen(true)}>
          Menu
        </button>
        {open && <p>panel</p>}
      </div>
      <span>outside</span>
    </div>
  );
}

describe('useDismiss', () => {
  it('closes on Escape and puts the focus back on the button', () => {
    const view = render(<Popover location="/" />);
    act(() => void fireEvent.keyDown(window, { key: 'Escape' }));
    expect(view.queryByText('panel')).toBeNull();
    expect(document.activeElement).toBe(view.getByRole('button', { name: 'Menu' }));
  });

  it('closes on a press outside its box, not inside; without a box, presses leave it open', () => {
    const view = render(<Popover location="/" />);
    fireEvent.pointerDown(view.getByText('panel'));
    expect(view.queryByText('panel')).not.toBeNull();
    fireEvent.pointerDown(view.getByText('outside'));
    expect(view.queryByText('panel')).toBeNull();
    view.unmount();
    const boxless = render(<Popover location="/" withBox={false} />);
    fireEvent.pointerDown(boxless.getByText('outside'));
    expect(boxless.queryByText('panel')).not.toBeNull();
  });

  it('closes when the location changes (a link followed), and not on other renders', () => {
    const view = render(<Popover location="/" />);
    view.rerender(<Popover location="/" />);
    expect(view.queryByText('panel')).not.toBeNull();
    view.rerender(<Popover location="/exceptions" />);
    expect(view.queryByText('panel')).toBeNull();
  });
});
