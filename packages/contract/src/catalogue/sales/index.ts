import { deliveries } from './delivery';
import { quotes } from './quote';
import { salesOrders } from './sales-order';

/** The sales module's resources. */
export const salesResources = [quotes, salesOrders, deliveries] as const;
