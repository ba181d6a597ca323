import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { ParentPlace } from './types';

const BrandOf = graphql(`query ResourceParentBrand($id: Int!) { place: Brand_GetBrandById(brandId: $id) { id name } }`);
const BranchOf = graphql(`query ResourceParentBranch($id: Int!) { place: Branch_GetById(branchId: $id) { id name } }`);
const CompanyOf = graphql(`query ResourceParentCompany($id: Int!) { place: Company_GetCompanyById(companyId: $id) { id name } }`);
const DOCUMENTS = { brand: BrandOf, branch: BranchOf, company: CompanyOf };
const LEVEL = { brand: 'Brand', branch: 'Branch', company: 'Company' };

/**
 * The place a sub-page edits (the brand of /brands/taxes/7, the branch of /branches/users/3), named
 * under the screen's title: "Brand: Mango Coffee". Its number until the name arrives.
 */
export function ParentName({ level, id }: { level: ParentPlace['level']; id: number }) {
  const { data } = useQuery(DOCUMENTS[level], { variables: { id }, fetchPolicy: 'cache-first', context: { silent: true } });
  const name = data?.place?.name;
  return (
    <p className="resource-parent" data-testid="resource-parent">
      {LEVEL[level]}: <strong>{name ?? `#${id}`}</strong>
    </p>
  );
}
