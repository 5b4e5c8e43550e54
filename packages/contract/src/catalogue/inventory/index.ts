import { lots } from './lot';
import { products } from './product';
import { productAttributes } from './product-attribute';
import { productAttributeValues } from './product-attribute-value';
import { productCategories } from './product-category';
import { productPackagings } from './product-packaging';
import { productVariants } from './product-variant';
import { reorderRules } from './reorder-rule';
import { serialNumbers } from './serial-number';
import { stockAdjustments } from './stock-adjustment';
import { stockCounts } from './stock-count';
import { stockLocations } from './stock-location';
import { stockMoves } from './stock-move';
import { stockTransfers } from './stock-transfer';
import { unitsOfMeasure } from './unit-of-measure';
import { uomConversions } from './uom-conversion';
import { warehouses } from './warehouse';

/** The inventory module's resources. */
export const inventoryResources = [
  unitsOfMeasure,
  uomConversions,
  productCategories,
  productAttributes,
  productAttributeValues,
  products,
  productVariants,
  productPackagings,
  warehouses,
  stockLocations,
  lots,
  serialNumbers,
  stockMoves,
  stockTransfers,
  stockCounts,
  stockAdjustments,
  reorderRules,
] as const;
