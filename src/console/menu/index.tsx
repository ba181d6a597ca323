import type { ComponentType } from 'react';
import { lazyChunk } from '../../lib/lazy';

/** The menu screens (SPEC.md 2.2): trees rather than paged lists, so custom screens beside the resource shape. */
export const MENU_PAGES: Record<string, ComponentType> = {
  '/store': lazyChunk(() => import('./StorePage')),
  '/MenuManagement': lazyChunk(() => import('./MenuManagementPage')),
  '/DeliveryAreas/:id': lazyChunk(() => import('./DeliveryAreasPage')),
};
