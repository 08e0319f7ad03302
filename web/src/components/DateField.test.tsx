// The app's date field (issue #29): typed as dd/mm/aaaa; text that is no date is said under the field when it loses
// focus, instead of the picker putting the last good value back without a word.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DateField } from './DateField.tsx';
import { renderWithProviders } from './testing.tsx';

afterEach(cleanup);

function Form() {
  const [value, setValue] = useState('');
  return (
    <>
      <DateField label="Vencimento" value={value} onChange={setValue} data-testid="expiry" />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('DateField', () => {
  it('takes dd/mm/aaaa, and says "Data inválida" for 31/02/2020 instead of dropping it silently', async () => {
    renderWithProviders(<Form />);
    const input = screen.getByTestId('expiry') as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '31/02/2020' } });
    fireEvent.blur(input);
    expect(await screen.findByText('Data inválida')).toBeTruthy();
    expect(screen.getByTestId('value').textContent).toBe('');

    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '10/05/2026' } });
    fireEvent.blur(input);
    expect(screen.getByTestId('value').textContent).toBe('2026-05-10');
    expect(screen.queryByText('Data inválida')).toBeNull();
  });
});
