import type { ComponentType } from 'react';
import { NonIdealState } from '@blueprintjs/core';
import { BuildIcon } from '@blueprintjs/icons';
import { lazyChunk } from '../lib/lazy';

/** Screens by route pattern (domain/permissions.ts CONSOLE_ROUTES). Each is its own lazy chunk. */
export const CONSOLE_PAGES: Record<string, ComponentType> = {
  '/dashboard': lazyChunk(() => import('./dashboard/DashboardPage')),
};

/** Routes whose screen is not part of this release yet say so plainly instead of showing fake data. */
export function NotYetAvailable({ title }: { title: string }) {
  return (
    <NonIdealState
      className="console-page"
      icon={<BuildIcon size={48} />}
      title={title}
      description="This screen is not available in this release yet."
    />
  );
}
