/**
 * Leaving the app for another site (the payment provider's page). One seam, so tests can
 * watch where the browser would go instead of leaving jsdom.
 */
export const externalNavigation = {
  assign(url: string) { window.location.assign(url); },
};
