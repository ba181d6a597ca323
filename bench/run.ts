import { benchOrders } from './orders';
import { benchGateway } from './gateway';
import { benchFirstLoad } from './firstLoad';
import { benchLighthouse } from './lighthouse';

/** `npm run bench`: every benchmark, one after the other. Prints numbers; never fails on slowness. */
const only = process.argv[2];
const BENCHES: Record<string, () => Promise<unknown>> = {
  gateway: () => benchGateway(),
  firstLoad: () => benchFirstLoad(),
  lighthouse: () => benchLighthouse(),
  orders: () => benchOrders({ orders: Number(process.env.BENCH_ORDERS ?? 100_000) }),
};
for (const [name, run] of Object.entries(BENCHES)) {
  if (only && only !== name) continue;
  console.log(`\n── bench: ${name} ──`);
  await run();
}
