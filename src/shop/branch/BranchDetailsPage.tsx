import { t } from '../../i18n';
import { Link } from 'wouter';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { Loading } from '../../common/Loading';
import { useShop } from '../shopContext';
import { orderingText, useChosenBranch, useOrdering } from './ordering';

export const BranchDetails = graphql(`
  query BranchDetails($branchId: Int!) {
    Branch_GetById(branchId: $branchId) { id name logoUrl openTime closeTime branchAddress branchPhoneNumber deliveryText isBusy }
  }
`);

/** /branch/BranchDetails: the chosen branch's name, phone, and opening and closing time. */
export default function BranchDetailsPage() {
  const shop = useShop();
  const { data, loading, error } = useQuery(BranchDetails, { variables: { branchId: shop.branchId }, context: { silent: true } });
  const b = data?.Branch_GetById;
  const ordering = useOrdering(useChosenBranch());
  if (loading && !b) return <Loading />;
  if (error || !b) return <section className="shop-section"><p className="shop-error" role="alert">{errorMessage(error, t('branch.failed'))}</p></section>;
  return (
    <section className="shop-section branch-details">
      <nav className="shop-crumbs"><Link href="/products">{t('layout.back')}</Link></nav>
      <div className="shop-card branch-details__card">
        <div className="branch-details__head">
          {b.logoUrl && <img src={b.logoUrl} alt="" width={56} height={56} />}
          <h1 className="shop-title" data-testid="branch-name">{b.name}</h1>
        </div>
        <dl className="order-summary">
          <dt>{t('branch.phone')}</dt><dd><a href={`tel:${b.branchPhoneNumber}`} dir="ltr">{b.branchPhoneNumber}</a></dd>
          <dt>{t('branch.opens')}</dt><dd data-testid="branch-open">{b.openTime}</dd>
          <dt>{t('branch.closes')}</dt><dd data-testid="branch-close">{b.closeTime}</dd>
          <dt>{t('branch.address')}</dt><dd>{b.branchAddress}</dd>
          {b.deliveryText && <><dt>{t('branch.delivery')}</dt><dd>{b.deliveryText}</dd></>}
          <dt>{t('branch.now')}</dt><dd data-testid="branch-ordering">{b.isBusy ? t('branch.busy') : orderingText(ordering)}</dd>
        </dl>
      </div>
    </section>
  );
}
