// The users page's confirmations (SPEC §5, §6): log in as a user, delete a user, suspend or reactivate a customer.
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import type { UsersDialogs } from './useUsersList.ts';

export function UserConfirms({ d }: { d: UsersDialogs }) {
  const { t } = useTranslation('users');
  const { loginAs, deleting, suspension } = d;
  return (
    <>
      {loginAs && (
        <ConfirmModal
          cancel={t('cancel')}
          title={t('loginAs.title', { name: loginAs.name || loginAs.email })}
          question={t('loginAs.question', { name: loginAs.name || loginAs.email })}
          testId="user-login-as-confirm"
          yes={t('loginAs.confirm')}
          yesTestId="user-login-as-yes"
          loading={d.switching}
          onYes={() => void d.confirmLoginAs()}
          onClose={() => d.setLoginAs(null)}
        />
      )}
      {deleting && (
        <ConfirmModal
          cancel={t('cancel')}
          title={t('deleteTitle')}
          question={t('deleteQuestion', { name: deleting.name })}
          testId="user-delete-confirm"
          yes={t('delete')}
          yesTestId="user-delete-yes"
          color="red"
          loading={d.deletePending}
          onYes={() => void d.confirmDelete()}
          onClose={() => d.setDeleting(null)}
        />
      )}
      {suspension && (
        <ConfirmModal
          cancel={t('cancel')}
          title={t(`billing.${suspension.action}.title`)}
          question={t(`billing.${suspension.action}.question`, { name: suspension.user.name })}
          testId="user-suspension-confirm"
          yes={t(`billing.${suspension.action}.button`)}
          yesTestId="user-suspension-yes"
          color={suspension.action === 'suspend' ? 'orange' : 'green'}
          loading={d.suspending}
          onYes={() => void d.confirmSuspension()}
          onClose={() => d.setSuspension(null)}
        />
      )}
    </>
  );
}
