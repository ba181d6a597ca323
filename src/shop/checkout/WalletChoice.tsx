import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectWallet, type checkoutMachine } from '../../../machines/checkout';
import { money, t } from '../../i18n';
import '../../i18n/enScreens';

type Wallet = ReturnType<typeof selectWallet>;

/**
 * Pay the whole order from the brand wallet (presentational): offered to a registered customer
 * holding a balance (machines/checkoutRewards.ts canUseWallet); `total` is the server's quote
 * without the wallet, so a wallet that does not cover it is shown, not offered.
 */
export function WalletChoiceView({ wallet, total, currency, disabled, onChoose }: { wallet: Wallet; total: number | null; currency: string; disabled: boolean; onChoose(use: boolean): void }) {
  if (!wallet.offered) return null;
  const short = !wallet.chosen && total !== null && total > wallet.balance;
  const amount = money(wallet.balance, currency);
  return (
    <div className="checkout__wallet">
      <label className={`choice${wallet.chosen ? ' is-chosen' : ''}`}>
        <input type="checkbox" checked={wallet.chosen} disabled={disabled || short} aria-describedby="wallet-balance"
          onChange={(e) => onChoose(e.target.checked)} />
        <span>{t('rewards.wallet')}</span>
      </label>
      <p id="wallet-balance" className="shop-muted" data-testid="wallet-balance">{t(short ? 'rewards.walletShort' : 'rewards.walletBalance', { amount })}</p>
    </div>
  );
}

const same = (a: Wallet, b: Wallet) => a.balance === b.balance && a.offered === b.offered && a.chosen === b.chosen;

/** Binds the choice to the checkout machine: reads `selectWallet`, sends `checkout.wallet`. */
export function WalletChoice({ checkout, total, currency, disabled }: { checkout: ActorRefFrom<typeof checkoutMachine>; total: number | null; currency: string; disabled: boolean }) {
  const wallet = useSelector(checkout, selectWallet, same);
  return <WalletChoiceView wallet={wallet} total={total} currency={currency} disabled={disabled} onChoose={(use) => checkout.send({ type: 'checkout.wallet', use })} />;
}
