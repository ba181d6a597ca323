import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context';
import { registerTokenAuth } from './tokenAuth/routes';
import { registerUser } from './user/routes';
import { registerShopBrands } from './brand/shop';
import { registerShopProducts } from './products/shop';

/** Every REST service, in the order of SPEC.md section 7. */
export const SERVICES: ((app: FastifyInstance, ctx: AppContext) => void)[] = [
  registerTokenAuth,
  registerUser,
  registerShopBrands,
  registerShopProducts,
];
