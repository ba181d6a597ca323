// Web push for the shop's notifications (docs/decisions.md "Notifications"): shows what the server
// pushed, tells open shop tabs to refresh their bell, and opens the shop when it is tapped.
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { title: event.data ? event.data.text() : '' }; }
  event.waitUntil((async () => {
    await self.registration.showNotification(data.title || 'Notification', { body: data.body || '', data: { url: data.url || '/' }, tag: `notification-${data.notificationId ?? ''}` });
    for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'notification', id: data.notificationId });
  })());
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil((async () => {
    const url = event.notification.data?.url || '/';
    const open = (await self.clients.matchAll({ type: 'window' }))[0];
    if (open) { await open.focus(); return; }
    await self.clients.openWindow(url);
  })());
});
