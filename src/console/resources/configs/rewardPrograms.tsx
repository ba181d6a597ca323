import './rewardPrograms.css';
import { Checkbox, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { useMemo, useState } from 'react';
import { useParams } from 'wouter';
import { graphql } from '../../../gql';
import { ResourceScreen } from '../ResourceScreen';
import type { FieldConfig, FieldInputProps, ResourceConfig } from '../types';
import { RewardPrograms } from '../generated/RewardPrograms';
import type { RowOf } from '../declared';
import { GroupName, GroupPicker } from '../../pickers/GroupPicker';
import { SearchIcon } from '@blueprintjs/icons';

type Program = RowOf<typeof RewardPrograms>;

// The list is the declaration's (RewardPrograms_GetBranchActualRewardProgramsByBranchId); the writes, one body per kind, are hand-written on the server.
const CreatePurchases = graphql(`mutation CreatePurchasesCollection($input: CreatePurchasesCollectionInput_Input!) { row: RewardPrograms_CreatePurchasesCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const EditPurchases = graphql(`mutation EditPurchasesCollection($input: EditPurchasesCollectionInput_Input!) { row: RewardPrograms_EditPurchasesCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const CreatePoints = graphql(`mutation CreatePointsCollection($input: CreatePointsCollectionInput_Input!) { row: RewardPrograms_CreatePointsCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const EditPoints = graphql(`mutation EditPointsCollection($input: EditPointsCollectionInput_Input!) { row: RewardPrograms_EditPointsCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const CreateDiscount = graphql(`mutation CreateConstantDiscount($input: CreateConstantDiscountInput_Input!) { row: RewardPrograms_CreateConstantDiscount(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const EditDiscount = graphql(`mutation EditConstantDiscount($input: EditConstantDiscountInput_Input!) { row: RewardPrograms_EditConstantDiscount(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const DeleteProgram = graphql(`mutation DeleteRewardProgram($id: Int!) { deleted: RewardPrograms_DeleteDiscountProgram(Id: $id) }`);

const BranchProducts = graphql(`
  query RewardProgramBranchProducts($branchId: Int!) {
    branch: Branch_GetById(branchId: $branchId) { id brandId }
  }
`);
const BrandProducts = graphql(`
  query RewardProgramBrandProducts($brandId: Int!) {
    tree: Products_GetProductsGroupedByTypeAndSubtype(brandId: $brandId) { id name subtypes { id name products { id name isHidden } } }
  }
`);

interface MenuProduct { id: number; name: string; section: string; hidden: boolean }

/** The brand of the branch this page's route names. */
function useBranchBrand() {
  const branchId = Number(useParams<{ id: string }>().id);
  const branch = useQuery(BranchProducts, { variables: { branchId }, skip: !branchId });
  return { brandId: branch.data?.branch?.brandId, branch };
}

/** The products of the branch's brand (this page's route), by menu section: the choices of a purchases collection. */
function useBranchProducts(): { products: MenuProduct[]; loading: boolean; failed: boolean } {
  const { brandId, branch } = useBranchBrand();
  const menu = useQuery(BrandProducts, { variables: { brandId: brandId ?? 0 }, skip: !brandId });
  const products = useMemo(() => (menu.data?.tree ?? []).flatMap((type) => (type?.subtypes ?? []).flatMap((sub) =>
    (sub?.products ?? []).filter((p) => !!p).map((p) => ({ id: p!.id, name: p!.name, section: `${type!.name} › ${sub!.name}`, hidden: !!p!.isHidden })))), [menu.data]);
  return { products, loading: branch.loading || menu.loading, failed: !!(branch.error || menu.error) };
}

/** The qualifying products' names (an id no longer on the menu shows as its number). */
function ProductNames({ ids }: { ids: number[] }) {
  const { products } = useBranchProducts();
  return <>{ids.map((pid) => products.find((p) => p.id === pid)?.name ?? `#${pid}`).join(', ')}</>;
}

/** The qualifying products of a purchases collection, chosen by name from the branch's menu. */
function ProductPicker({ id, value, disabled, invalid, onChange, onBlur }: FieldInputProps) {
  const { products, loading, failed } = useBranchProducts();
  const [search, setSearch] = useState('');
  const chosen = Array.isArray(value) ? (value as number[]) : [];
  const shown = products.filter((p) => p.name.toLowerCase().includes(search.trim().toLowerCase()));
  const toggle = (pid: number) => {
    onChange(chosen.includes(pid) ? chosen.filter((c) => c !== pid) : [...chosen, pid]);
    onBlur();
  };
  return (
    <div className="product-picker" role="group" aria-label="Qualifying products">
      <div className="product-picker-chosen" aria-live="polite">
        {chosen.length ? chosen.map((pid) => (
          <Tag key={pid} minimal onRemove={disabled ? undefined : () => toggle(pid)}>{products.find((p) => p.id === pid)?.name ?? `#${pid}`}</Tag>
        )) : <span className="bp6-text-muted">No product chosen yet.</span>}
      </div>
      <InputGroup
        id={id} type="search" value={search} disabled={disabled} intent={invalid ? 'danger' : 'none'} leftIcon={<SearchIcon />}
        placeholder="Find a product by name" onChange={(e) => setSearch(e.target.value)} onBlur={onBlur}
      />
      {loading ? <Spinner size={16} /> : failed ? <p className="bp6-text-muted">The menu could not be loaded.</p> : (
        <div className="product-picker-list">
          {shown.map((p) => (
            <Checkbox key={p.id} checked={chosen.includes(p.id)} disabled={disabled} onChange={() => toggle(p.id)}
              labelElement={<>{p.name} <span className="bp6-text-muted">{p.section}{p.hidden ? ' · hidden from the shop' : ''}</span></>} />
          ))}
          {!shown.length && <p className="bp6-text-muted">No product of this menu matches.</p>}
        </div>
      )}
    </div>
  );
}

/** A constant discount's group: one of the branch's brand's groups, found by name, with its member count. */
const BranchGroupPicker = (props: FieldInputProps) => <GroupPicker {...props} brandId={useBranchBrand().brandId ?? null} />;

const state = { field: 'isActive' as const, name: 'State', width: 110, sortable: true, render: (r: Program) => (r.isActive ? <Tag minimal intent="success">Active</Tag> : <Tag minimal>Inactive</Tag>) };
const common: FieldConfig[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 100 },
  { name: 'isActive', label: 'Active', kind: 'boolean' },
];
const base = (kind: string, title: string, noun: string): Pick<ResourceConfig<Program>, 'path' | 'title' | 'noun' | 'historyResource' | 'parent' | 'fixedFilter' | 'defaults' | 'defaultSorting' | 'rowClassName'> => ({
  path: '/branches/reward-programs/:id', title, noun, historyResource: RewardPrograms.service, parent: RewardPrograms.scope,
  fixedFilter: (params) => ({ branchId: Number(params.id), kind }),
  defaults: { isActive: true }, defaultSorting: RewardPrograms.defaultSorting,
  rowClassName: (r) => (r.isActive ? undefined : 'resource-row-muted'),
});

/** SPEC.md 3: a punch per qualifying product bought; `target` punches become one free item. */
export const purchasesScreen: ResourceConfig<Program> = {
  ...base('purchases', 'Purchases collection', 'purchases collection'),
  columns: [
    { field: 'name', name: 'Name', width: 220, sortable: true },
    { field: 'target', name: 'Punches for a free item', width: 180 },
    { field: 'productIds', name: 'Products', width: 240, render: (r) => <ProductNames ids={(r.productIds ?? []).filter((p): p is number => p != null)} /> },
    state,
  ],
  fields: [...common,
    { name: 'target', label: 'Punches for a free item', kind: 'number', required: true, min: 1, max: 1000 },
    { name: 'productIds', label: 'Qualifying products', kind: 'text', required: true, Input: ProductPicker, help: 'Each one bought earns a punch; a free item can be taken as one of them.' }],
  operations: { list: RewardPrograms.operations.list, create: CreatePurchases, update: EditPurchases, delete: DeleteProgram },
};

/** SPEC.md 3: points per KD paid, earned when the order is closed; products with redeem points can be paid with them. */
export const pointsScreen: ResourceConfig<Program> = {
  ...base('points', 'Points collection', 'points collection'),
  columns: [
    { field: 'name', name: 'Name', width: 220, sortable: true },
    { field: 'pointsPerKd', name: 'Points per KD', width: 140 },
    state,
  ],
  fields: [...common, { name: 'pointsPerKd', label: 'Points per KD', kind: 'number', required: true, min: 0.001, max: 10000 }],
  operations: { list: RewardPrograms.operations.list, create: CreatePoints, update: EditPoints, delete: DeleteProgram },
};

/** SPEC.md 3: a percentage off for a customer group (the shop's group discount). */
export const discountScreen: ResourceConfig<Program> = {
  ...base('discount', 'Constant discount', 'constant discount'),
  columns: [
    { field: 'name', name: 'Name', width: 220, sortable: true },
    { field: 'customerGroupId', name: 'Customer group', width: 220, render: (r) => <GroupName id={r.customerGroupId} /> },
    { field: 'discountPercent', name: 'Percent', width: 110, render: (r) => `${r.discountPercent} %` },
    state,
  ],
  fields: [...common,
    { name: 'customerGroupId', label: 'Customer group', kind: 'number', required: true, min: 1, Input: BranchGroupPicker },
    { name: 'discountPercent', label: 'Percent', kind: 'number', required: true, min: 0.001, max: 100 }],
  operations: { list: RewardPrograms.operations.list, create: CreateDiscount, update: EditDiscount, delete: DeleteProgram },
};

/** /branches/reward-programs/:id — a branch's three kinds of reward program, each a list of the shape. */
export default function RewardProgramsPage() {
  return (
    <div className="reward-programs-page">
      <ResourceScreen config={pointsScreen} />
      <ResourceScreen config={purchasesScreen} />
      <ResourceScreen config={discountScreen} />
    </div>
  );
}
