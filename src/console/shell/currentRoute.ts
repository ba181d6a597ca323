import { createContext, useContext, type ComponentType } from 'react';
import type { Capability } from '../../../domain/permissions';

/** The kind of place a route's id names: the guard checks it is one of the user's before the page opens. */
export type PlaceKind = 'company' | 'brand' | 'branch';

export interface ConsoleRoute {
  /** wouter pattern (SPEC.md 2.2) */
  path: string;
  /** The page title and the screen's heading. */
  title: string;
  /** Who may open it: a capability of the one permission table (domain/permissions.ts). */
  access: Capability;
  /** A side-menu entry, shown to roles with `visibleTo` (by default the route's own access). The icon is a component. */
  menu?: { label: string; icon: ComponentType; visibleTo?: Capability };
  /** The route's parameter that names a company, brand or branch; another tenant's id shows "Not found, or not yours". */
  place?: { param: string; kind: PlaceKind };
  /** The screen (a lazy chunk); none: "not available in this release yet". */
  page?: ComponentType;
}

/** The console route the page is mounted on (the table: src/console/pages.tsx): its title names the screen. */
export const CurrentRouteContext = createContext<ConsoleRoute | null>(null);
export const useCurrentRoute = () => useContext(CurrentRouteContext);
