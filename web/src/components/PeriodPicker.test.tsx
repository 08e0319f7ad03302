// The custom period's date inputs follow the app's language, not the browser's (issue #29): `lang` on each.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from './testing.tsx';
import { PeriodPicker } from './PeriodPicker.tsx';

afterEach(() => cleanup());

describe('PeriodPicker', () => {
  it.each(['pt-BR', 'es', 'en-US'] as const)('custom dates carry lang="%s"', (locale) => {
    renderWithProviders(
      <PeriodPicker
        value={{ period: 'custom', from: '2026-11-27T06:00', to: '2026-11-27T12:00' }}
        onChange={() => undefined}
        testId="p"
      />,
      { locale },
    );
    expect(screen.getByTestId('p-from').getAttribute('lang')).toBe(locale);
    expect(screen.getByTestId('p-to').getAttribute('lang')).toBe(locale);
  });
});
