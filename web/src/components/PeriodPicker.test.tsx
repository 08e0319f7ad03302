// The custom period's dates read and are typed in the app's language, not the browser's (issue #29): the native
// datetime-local input followed Chromium's language whatever `lang` said, so the fields are Mantine's DateInput.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from './testing.tsx';
import { PeriodPicker, type PeriodValue } from './PeriodPicker.tsx';

afterEach(() => cleanup());

const value: PeriodValue = { period: 'custom', from: '2026-11-27T06:00', to: '2026-11-27T12:00' };

describe('PeriodPicker', () => {
  it.each([
    ['pt-BR', '27/11/2026 06:00', 'dd/mm/aaaa hh:mm', '28/11/2026 07:30'],
    ['es', '27/11/2026 06:00', 'dd/mm/aaaa hh:mm', '28/11/2026 07:30'],
    ['en-US', '11/27/2026 06:00', 'mm/dd/yyyy hh:mm', '11/28/2026 07:30'],
  ] as const)('in %s shows %s and takes a typed date', (locale, shown, placeholder, typed) => {
    const onChange = vi.fn();
    renderWithProviders(<PeriodPicker value={value} onChange={onChange} testId="p" />, { locale });
    const from = screen.getByTestId('p-from') as HTMLInputElement;
    expect(from.value).toBe(shown);
    expect(from.placeholder).toBe(placeholder);
    expect(from.type).toBe('text');
    fireEvent.change(from, { target: { value: typed } });
    expect(onChange).toHaveBeenLastCalledWith({ ...value, from: '2026-11-28T07:30' });
  });

  it('ignores a half-typed date', () => {
    const onChange = vi.fn();
    renderWithProviders(<PeriodPicker value={value} onChange={onChange} testId="p" />, { locale: 'pt-BR' });
    fireEvent.change(screen.getByTestId('p-to'), { target: { value: '28/11/20' } });
    expect(onChange).not.toHaveBeenCalled();
  });

  it.each([
    ['a range in order', value, false],
    ['the same moment at both ends', { ...value, to: value.from }, false],
    ['a reversed range', { ...value, from: '2026-11-27T13:00' }, true],
    ['an empty end', { ...value, to: '' }, true],
  ] as const)('%s: the end shows the wrong period error or not', (_, v, shown) => {
    renderWithProviders(<PeriodPicker value={v} onChange={() => undefined} testId="p" />, {
      locale: 'pt-BR',
    });
    const to = screen.getByTestId('p-to');
    expect(to.getAttribute('aria-invalid') === 'true').toBe(shown);
  });
});
