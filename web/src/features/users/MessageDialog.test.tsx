import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { MessageDialog } from './MessageDialog.tsx';

const recipient = { id: 21, name: 'Bia', email: 'bia@example.com', attributes: {} } as unknown as User;

// Mantine's autosize textarea listens to the document's fonts, which jsdom does not have
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MessageDialog', () => {
  it('lists the result of a message as soon as it is sent', async () => {
    const f = fakeFetch((url) => json(url.includes('/notificators') ? [] : {}));
    vi.stubGlobal('fetch', f.fn);
    renderWithProviders(<MessageDialog recipient={recipient} onClose={() => undefined} />, {
      locale: 'en-US',
    });
    fireEvent.change(await screen.findByTestId('message-subject'), { target: { value: 'Notice' } });
    fireEvent.change(screen.getByTestId('message-body'), { target: { value: 'Come by at 5' } });
    fireEvent.click(screen.getByTestId('message-send'));
    expect((await screen.findByTestId('message-result-web')).textContent).toContain('Come by at 5');
    expect(f.calls.some((c) => c.url.includes('/notifications/send/web'))).toBe(true);
  });
});
