/**
 * One notification channel, and the one owner of a shown notice's lifetime. The shop and the console
 * each render the queue their own way; no view keeps a timer of its own.
 */
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

/** Hears every notice from now on; the returned function stops it. */
export function onNotice(listener: Listener) {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** How long a surface shows a notice of each intent. */
export type NoticeLifetimes = Record<Intent, number>;

/**
 * The notices a surface shows. It hears the channel and keeps one timer, for the notice that goes
 * next, only while something is subscribed: when the last subscriber leaves (the view unmounts) the
 * timer is cleared and the list emptied, so nothing fires into a page that is gone.
 * `replaceErrorsOnSuccess`: a success takes down the error notices still showing.
 */
export class NoticeQueue {
  private shown: readonly (Notice & { until: number })[] = [];
  private readonly subscribers = new Set<() => void>();
  private stopListening: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly lifetimes: NoticeLifetimes, private readonly replaceErrorsOnSuccess = false) {}

  /** The notices showing now (a new array after each change, for useSyncExternalStore). */
  readonly notices = (): readonly Notice[] => this.shown;

  readonly subscribe = (onChange: () => void): (() => void) => {
    this.subscribers.add(onChange);
    this.stopListening ??= onNotice((n) => this.add(n));
    return () => {
      this.subscribers.delete(onChange);
      if (this.subscribers.size > 0) return;
      this.stopListening?.();
      this.stopListening = null;
      this.shown = [];
      this.schedule();
    };
  };

  readonly dismiss = (id: number) => this.set(this.shown.filter((n) => n.id !== id));

  private add(n: Notice) {
    const kept = n.intent === 'success' && this.replaceErrorsOnSuccess ? this.shown.filter((x) => x.intent !== 'danger') : this.shown;
    this.set([...kept, { ...n, until: Date.now() + this.lifetimes[n.intent] }]);
  }

  private set(list: readonly (Notice & { until: number })[]) {
    this.shown = list;
    this.schedule();
    this.subscribers.forEach((s) => s());
  }

  /** One timer, for the earliest expiry; none when nothing is shown or nobody watches. */
  private schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.shown.length === 0 || this.subscribers.size === 0) return;
    const due = Math.min(...this.shown.map((n) => n.until));
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = Date.now();
      this.set(this.shown.filter((n) => n.until > now));
    }, Math.max(0, due - Date.now()));
  }
}
