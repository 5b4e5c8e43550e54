import { productionOrders } from './production-order';

/** The production module's resources. */
export const productionResources = [productionOrders] as const;
