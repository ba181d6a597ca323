import prepareSeedDump from '../tests/support/globalSetup';

/** `npm run bench`: every benchmark, one after the other. Prints numbers; never fails on slowness. */
const only = process.argv[2];
// The benches that start the test server load its seeded database dump, which only the test setup
// writes: make it (or confirm it is current) the same way, so the bench runs on a fresh clone too.
await prepareSeedDump();
// Each bench is loaded when its turn comes: one that cannot load (a missing browser or module) fails alone.
const BENCHES: Record<string, () => Promise<unknown>> = {
  startup: async () => (await import('./startup')).benchStartup(),
  gateway: async () => (await import('./gateway')).benchGateway(),
  firstLoad: async () => (await import('./firstLoad')).benchFirstLoad(),
  lighthouse: async () => (await import('./lighthouse')).benchLighthouse(),
  orders: async () => (await import('./orders')).benchOrders({ orders: Number(process.env.BENCH_ORDERS ?? 100_000) }),
  intake: async () => (await import('./intake')).benchIntake(),
  scale: async () => (await import('./scale')).benchScale(),
  alert: async () => (await import('./alert')).benchAlert(),
  consoleLists: async () => (await import('./consoleLists')).benchConsoleLists(),
  consoleFirstRows: async () => (await import('./consoleFirstRows')).benchConsoleFirstRows(),
};
for (const [name, run] of Object.entries(BENCHES)) {
  if (only && only !== name) continue;
  console.log(`\n── bench: ${name} ──`);
  // One bench that cannot run (no browser, no PostgreSQL) says why and the others still run.
  try {
    await run();
  } catch (err) {
    console.log(`bench ${name} could not run: ${err instanceof Error ? err.message : String(err)}`);
  }
}
