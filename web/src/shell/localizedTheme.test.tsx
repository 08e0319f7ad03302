// Mantine's built-in texts follow the user's language (issue #29): the password visibility toggle is labelled in
// pt-BR, es or en-US, never Mantine's English "Toggle password visibility"; a dialog's or alert's close button
// is named too.
import { Alert, Modal, PasswordInput } from '@mantine/core';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../components/testing.tsx';

afterEach(cleanup);

const toggle = () => screen.getByTestId('pw').parentElement!.parentElement!.querySelector('button')!;

describe('localized Mantine texts', () => {
  it('labels the password visibility toggle in the user language', () => {
    renderWithProviders(<PasswordInput label="Senha" data-testid="pw" />);
    expect(toggle().getAttribute('aria-label')).toBe('Mostrar ou ocultar a senha');
    cleanup();
    renderWithProviders(<PasswordInput label="Contraseña" data-testid="pw" />, { locale: 'es' });
    expect(toggle().getAttribute('aria-label')).toBe('Mostrar u ocultar la contraseña');
    cleanup();
    renderWithProviders(<PasswordInput label="Password" data-testid="pw" />, { locale: 'en-US' });
    expect(toggle().getAttribute('aria-label')).toBe('Show or hide the password');
  });

  it('names the close button of dialogs and alerts in the user language', () => {
    renderWithProviders(
      <Modal opened onClose={() => undefined} title="Minha conta">
        corpo
      </Modal>,
    );
    expect(screen.getByRole('dialog').querySelector('.mantine-Modal-close')!.getAttribute('aria-label')).toBe(
      'Fechar',
    );
    cleanup();
    renderWithProviders(
      <Alert withCloseButton onClose={() => undefined} data-testid="alert">
        aviso
      </Alert>,
      { locale: 'es' },
    );
    expect(screen.getByTestId('alert').querySelector('button')!.getAttribute('aria-label')).toBe('Cerrar');
  });
});
