import { Howl } from 'howler';

/** The bundled alert (public/sounds/new-order.wav, made by scripts/alertSound.ts). */
export const ALERT_SOUND_URL = '/sounds/new-order.wav';

declare global {
  interface Window {
    /** Test hooks: sounds actually started (howler's onplay), and when, per order. */
    __alertPlays?: number;
    __alertLog?: { orderId: number; requestedAt: number; playedAt?: number; repeat?: boolean }[];
  }
}

let howl: Howl | null = null;
const orderOfSound = new Map<number, number>();

function alertHowl(): Howl {
  if (howl) return howl;
  const h = new Howl({
    src: [ALERT_SOUND_URL],
    preload: true,
    onplay: (soundId) => {
      window.__alertPlays = (window.__alertPlays ?? 0) + 1;
      const orderId = orderOfSound.get(soundId);
      orderOfSound.delete(soundId);
      const entry = window.__alertLog?.find((e) => e.orderId === orderId && e.playedAt === undefined);
      if (entry) entry.playedAt = Date.now();
    },
    // Browsers refuse sound before the first user gesture; howler unlocks audio on it, then we play.
    onplayerror: () => { h.once('unlock', () => h.play()); },
  });
  howl = h;
  return h;
}

/** Loads the sound ahead of the first alert, so the first alert is not late. */
export function preloadAlertSound() {
  alertHowl();
}

/** Plays the new-order alert once; `repeatFor`: the orders a repeated alert is for (logged as repeats). */
export function playAlertSound(orderId: number, repeatFor?: number[]) {
  const log = (window.__alertLog ??= []);
  if (repeatFor) for (const id of repeatFor) log.push({ orderId: id, requestedAt: Date.now(), repeat: true });
  else log.push({ orderId, requestedAt: Date.now() });
  const soundId = alertHowl().play();
  if (typeof soundId === 'number') orderOfSound.set(soundId, orderId);
}

/** Plays the alert for /SupportPage's sound check; answers false when the browser refused sound. */
export function playTestAlert(): Promise<boolean> {
  return new Promise((resolve) => {
    const h = alertHowl();
    const id = h.play();
    const answer = (played: boolean) => { clearTimeout(timer); resolve(played); };
    const timer = setTimeout(() => answer(false), 3000);
    h.once('play', () => answer(true), id);
    h.once('playerror', () => answer(false), id);
  });
}
