import type { ComponentType } from 'react';
import { lazyChunk } from '../../lib/lazy';

/**
 * The staff-user screens (./screens.tsx, configs on the resource shape) and the brand switch page,
 * by route pattern for the console's page registry (../pages.tsx). One lazy chunk for all of them.
 */
const page = (name: 'UserManagementPage' | 'BrandUsersPage' | 'BranchUsersPage' | 'SelectBrandPage') =>
  lazyChunk(() => import('./pages').then((m) => ({ default: m[name] })));

export const USER_PAGES: Record<string, ComponentType> = {
  '/UserManagement': page('UserManagementPage'),
  '/brands/users/:id': page('BrandUsersPage'),
  '/branches/users/:id': page('BranchUsersPage'),
  '/select_brand': page('SelectBrandPage'),
};
