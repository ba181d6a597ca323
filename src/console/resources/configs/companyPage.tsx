import { ResourceScreen } from '../ResourceScreen';
import { companyScreen } from './companies';
import { companyBrandsScreen } from './brands';

/** /companies/:id — the company (its row, form and history), then its brands. */
export default function CompanyPage() {
  return (
    <div className="company-page">
      <ResourceScreen config={companyScreen} />
      <ResourceScreen config={companyBrandsScreen} />
    </div>
  );
}
