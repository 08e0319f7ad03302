// SlideToConfirm (SPEC §4, §9): a short drag resets and confirms nothing; a full drag confirms once; keyboard.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLIDE_HANDLE_OFFSET } from '@rastro/domain';
import { renderWithProviders } from './testing.tsx';
import { SLIDE_FALLBACK_WIDTH, SLIDE_HANDLE_SIZE, SlideToConfirm } from './SlideToConfirm.tsx';

// jsdom has no layout: the track measures as the 300 px fallback, starting at x = 0.
const MAX = SLIDE_FALLBACK_WIDTH - SLIDE_HANDLE_SIZE - SLIDE_HANDLE_OFFSET; // 252

function setup(disabled = false) {
  const onConfirm = vi.fn();
  renderWithProviders(
    <SlideToConfirm label="Deslize" handleLabel="Bloquear" onConfirm={onConfirm} disabled={disabled} />,
  );
  const handle = screen.getByTestId('slide-handle');
  const track = screen.getByTestId('slide-track');
  return { onConfirm, handle, track };
}

/** Presses on the handle (grabbing it 10 px in), moves to `toX` (handle left), releases. */
function drag(handle: HTMLElement, track: HTMLElement, toX: number, release = true) {
  const grabX = SLIDE_HANDLE_OFFSET + 10;
  fireEvent.pointerDown(handle, { clientX: grabX, pointerId: 1 });
  fireEvent.pointerMove(track, { clientX: toX + 10, pointerId: 1 });
  if (release) fireEvent.pointerUp(track, { clientX: toX + 10, pointerId: 1 });
}

describe('SlideToConfirm', () => {
  afterEach(cleanup);

  it('starts 2 px in', () => {
    const { handle, track } = setup();
    expect(handle.getAttribute('data-x')).toBe(String(SLIDE_HANDLE_OFFSET));
    expect(track.getAttribute('data-confirmed')).toBe('false');
  });

  it('a short drag follows the pointer and resets on release without confirming', () => {
    const { onConfirm, handle, track } = setup();
    drag(handle, track, 120, false);
    expect(handle.getAttribute('data-x')).toBe('120');
    fireEvent.pointerUp(track, { clientX: 130, pointerId: 1 });
    expect(handle.getAttribute('data-x')).toBe(String(SLIDE_HANDLE_OFFSET));
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('stopping 6 px before the end is still early; within 5 px confirms once', () => {
    const { onConfirm, handle, track } = setup();
    drag(handle, track, MAX - 6);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(handle.getAttribute('data-x')).toBe(String(SLIDE_HANDLE_OFFSET));

    drag(handle, track, MAX - 5, false);
    expect(track.getAttribute('data-confirmed')).toBe('true');
    expect(handle.getAttribute('data-x')).toBe(String(MAX));
    fireEvent.pointerUp(track, { pointerId: 1 });
    // a second gesture after confirmation does nothing more
    drag(handle, track, MAX);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('a full drag confirms and stays at the end after release', () => {
    const { onConfirm, handle, track } = setup();
    drag(handle, track, 1000);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(handle.getAttribute('data-x')).toBe(String(MAX));
  });

  it('keyboard: arrows step a fifth of the way, End reaches the end and confirms; blur early resets', () => {
    const { onConfirm, handle } = setup();
    act(() => handle.focus());
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(Number(handle.getAttribute('data-x'))).toBe(SLIDE_HANDLE_OFFSET + (MAX - SLIDE_HANDLE_OFFSET) / 5);
    expect(handle.getAttribute('aria-valuenow')).toBe('20');
    fireEvent.blur(handle);
    expect(handle.getAttribute('data-x')).toBe(String(SLIDE_HANDLE_OFFSET));
    expect(onConfirm).not.toHaveBeenCalled();

    for (let i = 0; i < 4; i++) fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('keyboard End confirms at once; Enter or Space alone do nothing', () => {
    const { onConfirm, handle } = setup();
    fireEvent.keyDown(handle, { key: 'Enter' });
    fireEvent.keyDown(handle, { key: ' ' });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(handle, { key: 'End' });
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('disabled ignores pointer and keys', () => {
    const { onConfirm, handle, track } = setup(true);
    drag(handle, track, 1000);
    fireEvent.keyDown(handle, { key: 'End' });
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('a new resetKey brings the handle back, and the next full slide confirms again', () => {
    const onConfirm = vi.fn();
    function Harness() {
      const [key, setKey] = useState(1);
      return (
        <>
          <button onClick={() => setKey(key + 1)}>again</button>
          <SlideToConfirm label="Deslize" handleLabel="Bloquear" onConfirm={onConfirm} resetKey={key} />
        </>
      );
    }
    renderWithProviders(<Harness />);
    const handle = screen.getByTestId('slide-handle');
    const track = screen.getByTestId('slide-track');
    drag(handle, track, 1000);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByText('again'));
    expect(track.getAttribute('data-confirmed')).toBe('false');
    expect(handle.getAttribute('data-x')).toBe(String(SLIDE_HANDLE_OFFSET));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    drag(handle, track, 1000);
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });
});
