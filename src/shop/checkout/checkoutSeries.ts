import type { CheckoutSeries } from '../../../machines/checkout';
import { storage, KEYS } from '../../lib/storage';

/** The checkout's series kept in this browser (machines/checkout.ts CheckoutSeries), or null. */
export const keptSeries = () => storage.getJson<CheckoutSeries | null>(KEYS.checkoutSeries, null);
export const keepSeries = (series: CheckoutSeries) => storage.setJson(KEYS.checkoutSeries, series);
/** The cart the series was for is cleared: a new cart is a new order, with a new key. */
export const forgetSeries = () => storage.remove(KEYS.checkoutSeries);
