import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { needsHomeScreen } from '../../src/shop/layout/NotificationBell';

/**
 * Issue 27: iOS delivers web push only to a web app on the Home Screen, so the shop offers "Add to
 * Home Screen" there before any permission, and ships the manifest and icons it needs.
 */
const nav = (userAgent: string, extra: Partial<{ platform: string; maxTouchPoints: number; standalone: boolean }> = {}) =>
  ({ userAgent, platform: extra.platform ?? '', maxTouchPoints: extra.maxTouchPoints ?? 0, standalone: extra.standalone }) as unknown as Navigator;
const win = (standalone: boolean) => ({ matchMedia: () => ({ matches: standalone }) }) as unknown as Window;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';

describe('Add to Home Screen first on iOS', () => {
  it('asks an iPhone or iPad in a Safari tab to add the shop first; not the Home Screen app, not Android', () => {
    expect(needsHomeScreen(nav(IPHONE), win(false))).toBe(true);
    expect(needsHomeScreen(nav(IPAD, { platform: 'MacIntel', maxTouchPoints: 5 }), win(false))).toBe(true);
    expect(needsHomeScreen(nav(IPHONE, { standalone: true }), win(false))).toBe(false);
    expect(needsHomeScreen(nav(IPHONE), win(true))).toBe(false);
    expect(needsHomeScreen(nav(IPAD, { platform: 'MacIntel', maxTouchPoints: 0 }), win(false))).toBe(false); // a Mac
    expect(needsHomeScreen(nav(ANDROID), win(false))).toBe(false);
  });

  it('ships a standalone manifest and PNG icons of the sizes it names, and index.html links them', () => {
    const manifest = JSON.parse(readFileSync('public/manifest.webmanifest', 'utf8')) as { display: string; start_url: string; icons: { src: string; sizes: string; type: string }[] };
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/' });
    const pngSize = (file: string) => { const b = readFileSync(file); return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`; };
    for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) expect(pngSize(`public${icon.src}`), icon.src).toBe(icon.sizes);
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    const html = readFileSync('index.html', 'utf8');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(html).toContain('<link rel="apple-touch-icon" href="/icons/icon-180.png" />');
    expect(pngSize('public/icons/icon-180.png')).toBe('180x180');
  });
});
