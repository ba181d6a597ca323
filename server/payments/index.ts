import type { AppConfig } from '../http/context';
import { cashProvider } from './cash';
import { sandboxProvider } from './sandbox';
import { myFatoorahProvider, MYFATOORAH } from './myfatoorah';
import { tapProvider, TAP } from './tap';
import type { GatewayMethod } from './gateway';
import type { OnlinePaymentProvider, PaymentProvider } from './provider';

export type { PaymentProvider, PaymentOrder, StartedPayment } from './provider';

/**
 * The adapter for a payment system's `provider` column; null when no adapter of that name exists,
 * or when its gateway is not configured (server/config.ts paymentSettingsFromEnv): the shop then
 * does not offer the method, and an order cannot be placed with it. Gateways are named
 * `<gateway>:<method>`: myfatoorah:knet, myfatoorah:card, tap:knet, tap:card.
 */
export function paymentProviderFor(name: string, config: AppConfig): PaymentProvider | null {
  switch (name) {
    case 'cash': return cashProvider;
    case 'sandbox': return sandboxProvider(config);
    default: return gatewayFor(name, config);
  }
}

function gatewayFor(name: string, config: AppConfig): OnlinePaymentProvider | null {
  const [gateway, method] = name.split(':') as [string, GatewayMethod | undefined];
  if (method !== 'knet' && method !== 'card') return null;
  const settings = config.payments;
  if (gateway === MYFATOORAH && settings?.myfatoorah) return myFatoorahProvider(settings.myfatoorah, config, method);
  if (gateway === TAP && settings?.tap) return tapProvider(settings.tap, config, method);
  return null;
}

/**
 * The adapter of a provider name when it takes money online: by default one that can be asked about
 * its payments (status inquiry: the gateways); with 'refund', one that can give money back (the
 * gateways and the sandbox). Null for cash and the unconfigured.
 */
export function onlineProviderFor(name: string, config: AppConfig): OnlinePaymentProvider | null;
export function onlineProviderFor(name: string, config: AppConfig, able: 'refund'): Pick<OnlinePaymentProvider, 'refund' | 'refundStatus'> | null;
export function onlineProviderFor(name: string, config: AppConfig, able: 'inquire' | 'refund' = 'inquire'): OnlinePaymentProvider | Pick<OnlinePaymentProvider, 'refund' | 'refundStatus'> | null {
  const p = paymentProviderFor(name, config);
  return p && typeof (p as unknown as Record<string, unknown>)[able] === 'function' ? p as OnlinePaymentProvider : null;
}
