import { Link } from 'wouter';
import { Card, H2, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { BranchesUM, BrandsUM } from '../users/places';

/**
 * /reward-programs: the side menu's entry to the loyalty programs (issue 23). A branch's three kinds
 * of program live on /branches/reward-programs/:id; this page lists the branches the user may see,
 * by brand, each opening its programs.
 */
export default function RewardProgramsEntry() {
  const branches = useQuery(BranchesUM, { fetchPolicy: 'cache-first' });
  const brands = useQuery(BrandsUM, { fetchPolicy: 'cache-first' });
  const list = (branches.data?.branches ?? []).flatMap((b) => (b ? [b] : []));
  const brandName = (id: number | null | undefined) => brands.data?.brands?.find((b) => b?.id === id)?.name ?? '';
  return (
    <div className="console-page" data-testid="reward-programs-entry">
      <H2>Reward Programs</H2>
      <p>Choose the branch whose reward programs you want to see or change.</p>
      {branches.loading ? <Spinner /> : list.length === 0 ? <NonIdealState title="No branches yet" description="Reward programs belong to a branch: add a branch first." /> : (
        <Card style={{ maxWidth: 720, padding: 0 }}>
          <HTMLTable striped interactive style={{ width: '100%' }}>
            <thead><tr><th>Brand</th><th>Branch</th><th /></tr></thead>
            <tbody>
              {list.map((b) => (
                <tr key={b.id}>
                  <td>{brandName(b.brandId)}</td>
                  <td>{b.name}</td>
                  <td><Link href={`/branches/reward-programs/${b.id}`}>Reward programs</Link></td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Card>
      )}
    </div>
  );
}
