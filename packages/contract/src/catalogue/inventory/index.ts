import { products } from './product';
import { productCategories } from './product-category';
import { unitsOfMeasure } from './unit-of-measure';
import { warehouses } from './warehouse';

/** The inventory module's resources. */
export const inventoryResources = [
  unitsOfMeasure,
  productCategories,
  products,
  warehouses,
] as const;
