import type { Tx } from './client';
import * as t from './schema';

/**
 * Demo reward card activity, so /brands/qrscans and a customer's Scans tab are not empty on a
 * fresh install: customers with profiles (gender and birth date, some left blank), a few
 * subscribers who never scanned, and about three months of scans at the demo branches up to the
 * moment of seeding. A fixed pseudo-random sequence makes every install the same shape.
 * No orders, wallets with balances or ledger rows: the order statistics and the ledger stay as the
 * rest of the seed leaves them.
 */
export const DEMO_SCAN_CUSTOMERS: readonly {
  fullName: string; gender: string | null; birthDate: string | null; brands: readonly number[]; visitsPerMonth: number;
  /** A newer customer scans only in the last this many days (default DAYS): the "new" of the charts. */
  sinceDays?: number;
}[] = [
  { fullName: 'Abdullah Al-Mutairi', gender: 'male', birthDate: '1988-04-12', brands: [7], visitsPerMonth: 9 },
  { fullName: 'Fatma Al-Ajmi', gender: 'female', birthDate: '2001-09-30', brands: [7], visitsPerMonth: 7 },
  { fullName: 'Mohammad Al-Enezi', gender: 'male', birthDate: '1995-01-22', brands: [7, 8], visitsPerMonth: 5 },
  { fullName: 'Noor Al-Rashidi', gender: 'female', birthDate: '1999-07-03', brands: [7], visitsPerMonth: 8 },
  { fullName: 'Hamad Al-Shammari', gender: 'male', birthDate: '1975-11-18', brands: [7], visitsPerMonth: 3 },
  { fullName: 'Dana Al-Kandari', gender: 'female', birthDate: '2004-02-14', brands: [7], visitsPerMonth: 6 },
  { fullName: 'Yaqoub Behbehani', gender: 'male', birthDate: '1992-06-27', brands: [7], visitsPerMonth: 4 },
  { fullName: 'Latifa Al-Sabah', gender: 'female', birthDate: '1983-12-09', brands: [7], visitsPerMonth: 2 },
  { fullName: 'Bader Al-Azmi', gender: 'male', birthDate: '2002-05-16', brands: [7], visitsPerMonth: 5 },
  { fullName: 'Reem Al-Otaibi', gender: 'female', birthDate: '1997-10-21', brands: [7, 8], visitsPerMonth: 4 },
  { fullName: 'Khalid Dashti', gender: 'male', birthDate: '1969-03-05', brands: [7], visitsPerMonth: 2 },
  { fullName: 'Maha Al-Fadhli', gender: 'female', birthDate: '1990-08-11', brands: [7], visitsPerMonth: 3 },
  { fullName: 'Ali Hayat', gender: 'male', birthDate: null, brands: [7], visitsPerMonth: 3 },
  { fullName: 'Shahad Al-Hajri', gender: null, birthDate: '2003-01-29', brands: [7], visitsPerMonth: 4, sinceDays: 25 },
  { fullName: 'Talal Al-Dosari', gender: 'male', birthDate: '1986-09-14', brands: [7], visitsPerMonth: 3, sinceDays: 10 },
  { fullName: 'Ghadeer Marafie', gender: 'female', birthDate: '1994-04-02', brands: [7], visitsPerMonth: 1.5, sinceDays: 20 },
  { fullName: 'Hussain Al-Baghli', gender: 'male', birthDate: '2010-05-05', brands: [7], visitsPerMonth: 2, sinceDays: 40 },
  { fullName: 'Nasser Al-Hamad', gender: 'male', birthDate: '1979-07-25', brands: [8], visitsPerMonth: 6 },
  { fullName: 'Asma Al-Khaled', gender: 'female', birthDate: '2000-11-07', brands: [8], visitsPerMonth: 5 },
  { fullName: 'Omar Al-Jassim', gender: 'male', birthDate: '1998-02-19', brands: [8], visitsPerMonth: 4 },
  { fullName: 'Haya Al-Mulla', gender: 'female', birthDate: '1972-05-30', brands: [8], visitsPerMonth: 3 },
  { fullName: 'Faisal Al-Qattan', gender: 'male', birthDate: '2005-08-08', brands: [8], visitsPerMonth: 2, sinceDays: 15 },
  { fullName: 'Lulwa Al-Saleh', gender: null, birthDate: null, brands: [8], visitsPerMonth: 2 },
  // Subscribers who have not scanned yet (a wallet, nothing else): the "not scanned" of the charts.
  { fullName: 'Jassim Al-Roumi', gender: 'male', birthDate: '1991-03-17', brands: [7], visitsPerMonth: 0 },
  { fullName: 'Munira Al-Ghanim', gender: 'female', birthDate: '1985-06-06', brands: [7], visitsPerMonth: 0 },
  { fullName: 'Saud Al-Harbi', gender: 'male', birthDate: '2002-12-01', brands: [7, 8], visitsPerMonth: 0 },
  { fullName: 'Abeer Al-Sharhan', gender: 'female', birthDate: null, brands: [8], visitsPerMonth: 0 },
];

const DAYS = 90;
const BRANCHES_OF: Record<number, number[]> = { 7: [1], 8: [2, 3] };
/** The demo branch user works at branch 1; scans at the other demo branches are the system's. */
const SCANNER_AT: Record<number, number | null> = { 1: 4, 2: null, 3: null };

/** mulberry32: a small fixed pseudo-random sequence, so the demo is the same on every install. */
export function sequence(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes the demo customers, their wallets and scans; called by the seed once the users' sequence is past the fixed ids. */
export async function seedDemoScans(tx: Tx, now = new Date()) {
  const random = sequence(20261123);
  const day = 24 * 3600 * 1000;
  const people = await tx.insert(t.users).values(DEMO_SCAN_CUSTOMERS.map((c, i) => ({
    userName: `+9656610${String(i + 1).padStart(4, '0')}`, phoneNumber: `+9656610${String(i + 1).padStart(4, '0')}`,
    fullName: c.fullName, gender: c.gender, birthDate: c.birthDate, role: 'CUSTOMER', passwordHash: '!',
    createdAt: new Date(now.getTime() - (120 + Math.floor(random() * 400)) * day),
  }))).returning({ id: t.users.id });

  const wallets: (typeof t.customerWallets.$inferInsert)[] = [];
  const scans: (typeof t.rewardCardScans.$inferInsert)[] = [];
  DEMO_SCAN_CUSTOMERS.forEach((c, i) => {
    const userId = people[i].id;
    for (const brandId of c.brands) {
      wallets.push({ userId, brandId });
      const branchIds = BRANCHES_OF[brandId];
      const days = c.sinceDays ?? DAYS;
      const visits = Math.round((c.visitsPerMonth * days) / 30 / c.brands.length);
      for (let v = 0; v < visits; v++) {
        // A Kuwait-time moment between 07:00 and 23:00 (UTC+3) on one of the last DAYS days.
        const daysAgo = Math.floor(random() * days);
        const kuwaitMinutes = 7 * 60 + Math.floor(random() * 16 * 60);
        const midnightUtc = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysAgo * day;
        const at = new Date(midnightUtc + (kuwaitMinutes - 180) * 60_000);
        if (at.getTime() >= now.getTime()) continue;
        const branchId = branchIds[Math.floor(random() * branchIds.length)];
        scans.push({ userId, brandId, branchId, scanType: random() < 0.8 ? 'reward' : 'redemption', scannedBy: SCANNER_AT[branchId], createdAt: at });
      }
    }
  });
  await tx.insert(t.customerWallets).values(wallets);
  if (scans.length) await tx.insert(t.rewardCardScans).values(scans);
  return { customers: people.length, scans: scans.length };
}
