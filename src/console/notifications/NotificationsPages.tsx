import { can } from '../../../domain/permissions';
import { useSession } from '../../lib/session';
import { ResourceScreen } from '../resources/ResourceScreen';
import { notificationRequestScreen, notificationSendScreen, notificationsScreen, sentNotificationsScreen } from './notificationScreens';

/** /notifications: the requests and their decisions, then every notification sent (direct sends by ADMIN too). */
export function NotificationsPage() {
  return (
    <>
      <ResourceScreen key={notificationsScreen.path} config={notificationsScreen} />
      <ResourceScreen key={sentNotificationsScreen.noun} config={sentNotificationsScreen} />
    </>
  );
}

/** /NotificationRequest: ADMIN sends directly; the roles below ask (domain/permissions.ts notifications.send / .request). */
export function NotificationRequestPage() {
  const { role } = useSession();
  const config = can(role, 'notifications.send') ? notificationSendScreen : notificationRequestScreen;
  return <ResourceScreen key={config.noun} config={config} />;
}
