import { useEffect, useLayoutEffect } from 'react';
import { PRODUCT_NAME } from '../../domain/constants';

/** The page title is the route title followed by the product name. */
export const pageTitle = (title: string) => `${title} | ${PRODUCT_NAME}`;

export function useTitle(title: string) {
  useEffect(() => { document.title = pageTitle(title); }, [title]);
}

/**
 * A route's default title, set before the page's own effects run, so that a page naming what it
 * shows (a product's name) has the last word; useTitle in the page then wins.
 */
export function useRouteTitle(title: string) {
  useLayoutEffect(() => { document.title = pageTitle(title); }, [title]);
}
