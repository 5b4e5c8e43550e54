import { products } from './product';
import { warehouses } from './warehouse';

/** The inventory module's resources. */
export const inventory = [products, warehouses] as const;
