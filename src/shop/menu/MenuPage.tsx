import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { TIMINGS } from '../../../domain/constants';
import { BrandPicker } from '../picker/BrandPicker';
import { ProductList } from './ProductList';
import { useShop } from '../shopContext';

/** `/` and `/products`: the brand and branch picker, then the chosen branch's menu. */
export default function MenuPage() {
  const shop = useShop();
  const [location, navigate] = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className="menu-page">
      <section className="shop-section">
        <h1 className="shop-title">Choose a branch</h1>
        <BrandPicker
          selectedBranchId={shop.branchId}
          onPick={(brand, branch) => {
            shop.select({ brandId: brand.id, branchId: branch.id, currency: brand.currency });
            clearTimeout(timer.current);
            if (location !== '/products') timer.current = setTimeout(() => navigate('/products'), TIMINGS.branchPickNavigateMs);
          }}
        />
      </section>
      <ProductList brandId={shop.brandId} branchId={shop.branchId} currency={shop.currency} />
    </div>
  );
}
