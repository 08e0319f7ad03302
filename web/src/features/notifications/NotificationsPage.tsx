// /notifications (SPEC §2, always in the side menu): the notification rule manager.
import { RuleManager } from './RuleManager.tsx';

export function NotificationsPage() {
  return <RuleManager variant="notifications" />;
}
