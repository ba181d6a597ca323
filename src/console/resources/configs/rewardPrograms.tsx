import { InputGroup, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { graphql } from '../../../gql';
import { ResourceScreen } from '../ResourceScreen';
import type { FieldConfig, FieldInputProps, ResourceConfig } from '../types';

const ProgramList = graphql(`
  query RewardProgramList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $branchId: Int, $kind: String) {
    list: RewardPrograms_GetBranchActualRewardProgramsByBranchId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, branchId: $branchId, kind: $kind) {
      totalCount data { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent }
    }
  }
`);
const CreatePurchases = graphql(`mutation CreatePurchasesCollection($input: CreatePurchasesCollectionInput_Input!) { row: RewardPrograms_CreatePurchasesCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const EditPurchases = graphql(`mutation EditPurchasesCollection($input: EditPurchasesCollectionInput_Input!) { row: RewardPrograms_EditPurchasesCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const CreatePoints = graphql(`mutation CreatePointsCollection($input: CreatePointsCollectionInput_Input!) { row: RewardPrograms_CreatePointsCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const EditPoints = graphql(`mutation EditPointsCollection($input: EditPointsCollectionInput_Input!) { row: RewardPrograms_EditPointsCollection(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const CreateDiscount = graphql(`mutation CreateConstantDiscount($input: CreateConstantDiscountInput_Input!) { row: RewardPrograms_CreateConstantDiscount(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const EditDiscount = graphql(`mutation EditConstantDiscount($input: EditConstantDiscountInput_Input!) { row: RewardPrograms_EditConstantDiscount(input: $input) { id branchId kind name isActive target productIds pointsPerKd customerGroupId discountPercent } }`);
const DeleteProgram = graphql(`mutation DeleteRewardProgram($id: Int!) { deleted: RewardPrograms_DeleteDiscountProgram(Id: $id) }`);

/** The qualifying products of a purchases collection, typed as their ids (comma separated). */
function ProductIdsInput({ id, value, disabled, invalid, onChange, onBlur }: FieldInputProps) {
  const [text, setText] = useState(Array.isArray(value) ? value.join(', ') : '');
  return (
    <InputGroup
      id={id} value={text} disabled={disabled} intent={invalid ? 'danger' : 'none'} placeholder="e.g. 101, 102"
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value.split(/[\s,]+/).filter(Boolean).map(Number));
      }}
      onBlur={onBlur}
    />
  );
}

const state = { field: 'isActive', name: 'State', width: 110, sortable: true, render: (r: Record<string, unknown>) => (r.isActive ? <Tag minimal intent="success">Active</Tag> : <Tag minimal>Inactive</Tag>) };
const common: FieldConfig[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 100 },
  { name: 'isActive', label: 'Active', kind: 'boolean' },
];
const base = (kind: string, title: string, noun: string): Pick<ResourceConfig, 'path' | 'title' | 'noun' | 'historyResource' | 'fixedFilter' | 'defaults' | 'defaultSorting' | 'rowClassName'> => ({
  path: '/branches/reward-programs/:id', title, noun, historyResource: 'RewardPrograms',
  fixedFilter: (params) => ({ branchId: Number(params.id), kind }),
  defaults: { isActive: true }, defaultSorting: { field: 'id', direction: 'asc' },
  rowClassName: (r) => (r.isActive ? undefined : 'resource-row-muted'),
});

/** SPEC.md 3: a punch per qualifying product bought; `target` punches become one free item. */
export const purchasesScreen: ResourceConfig = {
  ...base('purchases', 'Purchases collection', 'purchases collection'),
  columns: [
    { field: 'name', name: 'Name', width: 220, sortable: true },
    { field: 'target', name: 'Punches for a free item', width: 180 },
    { field: 'productIds', name: 'Products', width: 180, render: (r) => (r.productIds as number[]).join(', ') },
    state,
  ],
  fields: [...common,
    { name: 'target', label: 'Punches for a free item', kind: 'number', required: true, min: 1, max: 1000 },
    { name: 'productIds', label: 'Qualifying product ids', kind: 'text', required: true, Input: ProductIdsInput, help: 'Each one bought earns a punch.' }],
  operations: { list: ProgramList, create: CreatePurchases, update: EditPurchases, delete: DeleteProgram },
};

/** SPEC.md 3: points per KD paid, earned when the order is closed; products with redeem points can be paid with them. */
export const pointsScreen: ResourceConfig = {
  ...base('points', 'Points collection', 'points collection'),
  columns: [
    { field: 'name', name: 'Name', width: 220, sortable: true },
    { field: 'pointsPerKd', name: 'Points per KD', width: 140 },
    state,
  ],
  fields: [...common, { name: 'pointsPerKd', label: 'Points per KD', kind: 'number', required: true, min: 0.001, max: 10000 }],
  operations: { list: ProgramList, create: CreatePoints, update: EditPoints, delete: DeleteProgram },
};

/** SPEC.md 3: a percentage off for a customer group (the shop's group discount). */
export const discountScreen: ResourceConfig = {
  ...base('discount', 'Constant discount', 'constant discount'),
  columns: [
    { field: 'name', name: 'Name', width: 220, sortable: true },
    { field: 'customerGroupId', name: 'Customer group', width: 140 },
    { field: 'discountPercent', name: 'Percent', width: 110, render: (r) => `${r.discountPercent} %` },
    state,
  ],
  fields: [...common,
    { name: 'customerGroupId', label: 'Customer group id', kind: 'number', required: true, min: 1 },
    { name: 'discountPercent', label: 'Percent', kind: 'number', required: true, min: 0.001, max: 100 }],
  operations: { list: ProgramList, create: CreateDiscount, update: EditDiscount, delete: DeleteProgram },
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
