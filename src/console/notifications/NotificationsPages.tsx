import { useEffect, useState } from 'react';
import { can } from '../../../domain/permissions';
import { useSession } from '../../lib/session';
import { onNotice } from '../../lib/notify';
import { ResourceScreen } from '../resources/ResourceScreen';
import { notificationRequestScreen, notificationSendScreen, notificationsScreen, sentNotificationsScreen } from './notificationScreens';

/**
 * /notifications: the requests not sent yet and their decisions, then every notification sent
 * (approved requests and ADMIN's direct sends). An approval moves its request from the first list
 * to the second at once: the sent list reads itself again on the approval's notice.
 */
export function NotificationsPage() {
  const [sent, setSent] = useState(0);
  useEffect(() => onNotice((n) => { if (n.intent === 'success' && n.title === 'Request approved') setSent((k) => k + 1); }), []);
  return (
    <>
      <ResourceScreen key={notificationsScreen.path} config={notificationsScreen} />
      <ResourceScreen key={`${sentNotificationsScreen.noun}-${sent}`} config={sentNotificationsScreen} />
    </>
  );
}

/** /NotificationRequest: ADMIN sends directly; the roles below ask (domain/permissions.ts notifications.send / .request). */
export function NotificationRequestPage() {
  const { role } = useSession();
  const config = can(role, 'notifications.send') ? notificationSendScreen : notificationRequestScreen;
  return <ResourceScreen key={config.noun} config={config} />;
}
