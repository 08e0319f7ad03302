// The countdown of a shared link's expiry (SPEC §4): whole seconds left, and onExpire once when the moment passes,
// again only after a later moment was given.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from './Countdown.tsx';

const show = (left: number) => `${left}s`;

describe('Countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-29T12:00:00Z'));
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts down and calls onExpire once when the moment passes', () => {
    const onExpire = vi.fn();
    render(<Countdown expiresAt={Date.now() + 2000} onExpire={onExpire} children={show} />);
    expect(screen.getByTestId('countdown').textContent).toBe('2s');
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('countdown').textContent).toBe('1s');
    expect(onExpire).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('countdown').textContent).toBe('0s');
    expect(onExpire).toHaveBeenCalledTimes(1);
    act(() => void vi.advanceTimersByTime(5000));
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('a moment already past expires at once; a later one given afterwards expires again', () => {
    const onExpire = vi.fn();
    const { rerender } = render(
      <Countdown expiresAt={new Date(Date.now() - 1000).toISOString()} onExpire={onExpire} children={show} />,
    );
    expect(onExpire).toHaveBeenCalledTimes(1);
    rerender(<Countdown expiresAt={Date.now() + 1000} onExpire={onExpire} children={show} />);
    expect(screen.getByTestId('countdown').textContent).toBe('1s');
    act(() => void vi.advanceTimersByTime(1000));
    expect(onExpire).toHaveBeenCalledTimes(2);
  });

  it('calls the onExpire given last', () => {
    const first = vi.fn();
    const last = vi.fn();
    const at = Date.now() + 1000;
    const { rerender } = render(<Countdown expiresAt={at} onExpire={first} children={show} />);
    rerender(<Countdown expiresAt={at} onExpire={last} children={show} />);
    act(() => void vi.advanceTimersByTime(1000));
    expect(first).not.toHaveBeenCalled();
    expect(last).toHaveBeenCalledTimes(1);
  });
});
