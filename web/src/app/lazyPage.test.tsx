// A lazy part (the shell, the map, a page) shows its own fallback while its code is on its way and appears as soon
// as the code is there: never through a Suspense retry, which React holds back until 300 ms after a fallback showed.
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazyPage.tsx';

function Part({ label }: { label: string }) {
  return <p>{label}</p>;
}

/** A load the test settles by hand. */
function manualLoad() {
  let settle!: { resolve: () => void; reject: (e: Error) => void };
  let calls = 0;
  const load = () => {
    calls++;
    return new Promise<{ default: typeof Part }>((resolve, reject) => {
      settle = { resolve: () => resolve({ default: Part }), reject };
    });
  };
  return { load, settle: () => settle, calls: () => calls };
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(e: Error) {
    return { error: e.message };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error}</p> : this.props.children;
  }
}

/** Lets React's scheduler (setImmediate here) and promise callbacks run, `turns` times, outside act(). */
async function turns(n = 20) {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

describe('lazyPage', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('renders at once when its code is already there', async () => {
    const Ready = lazyPage(() => Promise.resolve({ default: Part }), <p>loading</p>);
    await Ready.preload();
    render(<Ready label="ready" />);
    expect(screen.getByText('ready')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('shows its fallback, then the part as soon as the code arrives, with no 300 ms hold', async () => {
    // React's reveal throttle is a setTimeout; frozen here, so only a plain update can show the part
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const m = manualLoad();
    const Lazy = lazyPage(m.load, <p>loading</p>);
    render(
      <Suspense fallback={<p>suspended</p>}>
        <Lazy label="arrived" />
      </Suspense>,
    );
    await turns();
    expect(screen.getByText('loading')).toBeTruthy();
    expect(screen.queryByText('suspended')).toBeNull();
    m.settle().resolve();
    await turns();
    expect(screen.getByText('arrived')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    expect(m.calls()).toBe(1);
  });

  it('loads again after a failure, and an error boundary sees a second failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught error
    const m = manualLoad();
    const Lazy = lazyPage(m.load, <p>loading</p>);
    render(
      <Boundary>
        <Suspense fallback={<p>suspended</p>}>
          <Lazy label="never" />
        </Suspense>
      </Boundary>,
    );
    await act(async () => {
      m.settle().reject(new Error('offline'));
    });
    // the retry is React.lazy's: a second request
    expect(m.calls()).toBe(2);
    await act(async () => {
      m.settle().reject(new Error('still offline'));
    });
    expect(screen.getByText('failed: still offline')).toBeTruthy();
  });

  it('a retry that succeeds shows the part', async () => {
    const m = manualLoad();
    const Lazy = lazyPage(m.load, <p>loading</p>);
    render(
      <Suspense fallback={<p>suspended</p>}>
        <Lazy label="second time" />
      </Suspense>,
    );
    await act(async () => {
      m.settle().reject(new Error('offline'));
    });
    await act(async () => {
      m.settle().resolve();
    });
    expect(screen.getByText('second time')).toBeTruthy();
  });
});
