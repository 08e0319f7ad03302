// The users page's confirmations (SPEC §5, §6): log in as a user, delete a user, suspend or reactivate a customer.
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import type { UsersDialogs } from './useUsersList.ts';

export function UserConfirms({ d }: { d: UsersDialogs }) {
  const { t } = useTranslation('users');
  const { open, catalogue: c } = d;
  const question = { cancel: t('cancel'), loading: d.busy, onYes: () => void d.confirm(), onClose: d.close };
  return (
    <>
      {open?.kind === 'loginAs' && (
        <ConfirmModal
          {...question}
          title={t('loginAs.title', { name: open.user.name || open.user.email })}
          question={t('loginAs.question', { name: open.user.name || open.user.email })}
          testId="user-login-as-confirm"
          yes={t('loginAs.confirm')}
          yesTestId="user-login-as-yes"
        />
      )}
      {c.deleting && (
        <ConfirmModal
          cancel={t('cancel')}
          title={t('deleteTitle')}
          question={t('deleteQuestion', { name: c.deleting.name })}
          testId="user-delete-confirm"
          yes={t('delete')}
          yesTestId="user-delete-yes"
          color="red"
          loading={c.removing}
          onYes={() => void c.confirmDelete()}
          onClose={() => c.setDeleting(null)}
        />
      )}
      {(open?.kind === 'suspend' || open?.kind === 'reactivate') && (
        <ConfirmModal
          {...question}
          title={t(`billing.${open.kind}.title`)}
          question={t(`billing.${open.kind}.question`, { name: open.user.name })}
          testId="user-suspension-confirm"
          yes={t(`billing.${open.kind}.button`)}
          yesTestId="user-suspension-yes"
          color={open.kind === 'suspend' ? 'orange' : 'green'}
        />
      )}
    </>
  );
}
