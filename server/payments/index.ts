import type { AppConfig } from '../http/context';
import { cashProvider } from './cash';
import { sandboxProvider } from './sandbox';
import type { PaymentProvider } from './provider';

export type { PaymentProvider, PaymentOrder, StartedPayment } from './provider';

/** The adapter for a payment system's `provider` column; null when no adapter of that name exists. */
export function paymentProviderFor(name: string, config: AppConfig): PaymentProvider | null {
  switch (name) {
    case 'cash': return cashProvider;
    case 'sandbox': return sandboxProvider(config);
    default: return null;
  }
}
