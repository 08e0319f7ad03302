// The assistant page offers only the sample questions the user may ask (issue #27): a user whose reports are
// switched off (disableReports, or the reports.view bit denied) is not offered "km today" nor "who sped".
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { permissionIndex, setPermissionBit, type Server, type User } from '@rastro/domain';
import { renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { AssistantPage } from './AssistantPage.tsx';

const server = { id: 1, attributes: { 'rastro.enableAdvancedPerms': true } } as unknown as Server;
const user = (fields: Partial<User>) =>
  ({ id: 2, name: 'Ana', administrator: false, attributes: {}, ...fields }) as unknown as User;

function samples(u: User): string[] {
  useSession.setState({ user: u, server, isPlus: true, ns: 'rastro' });
  renderWithProviders(<AssistantPage />, { locale: 'en-US' });
  return screen.getAllByTestId('assistant-sample').map((b) => b.textContent ?? '');
}

afterEach(cleanup);

describe('AssistantPage sample questions', () => {
  it('a user with reports gets all four', () => {
    expect(samples(user({}))).toHaveLength(4);
  });

  it('disableReports: only the live-map questions (where is, offline)', () => {
    const list = samples(user({ disableReports: true }));
    expect(list).toEqual(['Where is the truck ABC1D23?', 'Which vehicles are offline?']);
  });

  it('the reports.view bit denied: only the live-map questions', () => {
    const perms = setPermissionBit('f'.repeat(32), permissionIndex('reports', 'view')!, false);
    const list = samples(user({ attributes: { 'rastro.advancedPerms': perms } }));
    expect(list).toEqual(['Where is the truck ABC1D23?', 'Which vehicles are offline?']);
  });
});
