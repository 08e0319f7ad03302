// Test helpers for component tests in jsdom: browser APIs Mantine needs, and a render with every provider.
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Providers } from '../shell/Providers.tsx';
import { createQueryClient } from '../shell/queryClient.ts';
import { createI18n, type Locale } from '../i18n/index.ts';

export function installBrowserStubs(): void {
  if (typeof window === 'undefined') return;
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }),
    });
  }
  if (!('ResizeObserver' in window)) {
    class RO {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, value: RO });
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
}

installBrowserStubs();

export function renderWithProviders(
  ui: ReactElement,
  { route = '/', locale = 'pt-BR' as Locale }: { route?: string; locale?: Locale } = {},
): RenderResult {
  const { hook, searchHook } = memoryLocation({ path: route });
  return render(
    <Providers client={createQueryClient()} i18n={createI18n(locale)}>
      <Router hook={hook} searchHook={searchHook}>
        {ui}
      </Router>
    </Providers>,
  );
}

/** A fetch double answering from a handler; records every call. */
export function fakeFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({ url, init });
    return handler(url, init);
  };
  return { fn: fn as typeof fetch, calls };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
export const text = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain' } });
