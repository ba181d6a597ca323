import { benchOrders } from './orders';
import { benchGateway } from './gateway';
import { benchFirstLoad } from './firstLoad';
import { benchLighthouse } from './lighthouse';
import { benchIntake } from './intake';
import { benchStartup } from './startup';
import { benchConsoleLists } from './consoleLists';
import { benchConsoleFirstRows } from './consoleFirstRows';
import prepareSeedDump from '../tests/support/globalSetup';

/** `npm run bench`: every benchmark, one after the other. Prints numbers; never fails on slowness. */
const only = process.argv[2];
// The benches that start the test server load its seeded database dump, which only the test setup
// writes: make it (or confirm it is current) the same way, so the bench runs on a fresh clone too.
await prepareSeedDump();
const BENCHES: Record<string, () => Promise<unknown>> = {
  startup: () => benchStartup(),
  gateway: () => benchGateway(),
  firstLoad: () => benchFirstLoad(),
  lighthouse: () => benchLighthouse(),
  orders: () => benchOrders({ orders: Number(process.env.BENCH_ORDERS ?? 100_000) }),
  intake: () => benchIntake(),
  consoleLists: () => benchConsoleLists(),
  consoleFirstRows: () => benchConsoleFirstRows(),
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
