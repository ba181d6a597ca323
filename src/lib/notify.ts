/** One notification channel; the shop and the console each render it their own way. */
export type Intent = 'success' | 'danger' | 'warning' | 'primary';
export interface Notice { id: number; title: string; message: string; intent: Intent }

type Listener = (n: Notice) => void;
const listeners = new Set<Listener>();
let next = 1;

export function notify(intent: Intent, title: string, message: string) {
  const notice = { id: next++, title, message, intent };
  listeners.forEach((l) => l(notice));
  return notice;
}
export const notifyError = (message: string) => notify('danger', 'Error', message);

export function onNotice(listener: Listener) {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}
