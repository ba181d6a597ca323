import { useEffect } from 'react';
import { PRODUCT_NAME } from '../../domain/constants';

/** The page title is the route title followed by the product name. */
export const pageTitle = (title: string) => `${title} | ${PRODUCT_NAME}`;

export function useTitle(title: string) {
  useEffect(() => { document.title = pageTitle(title); }, [title]);
}
