import { productionOrders } from './production-order';

/** The production module's resources. */
export const production = [productionOrders] as const;
