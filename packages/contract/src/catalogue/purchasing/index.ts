import { goodsReceipts } from './goods-receipt';
import { purchaseOrders } from './purchase-order';
import { suppliers } from './supplier';

/** The purchasing module's resources. */
export const purchasingResources = [suppliers, purchaseOrders, goodsReceipts] as const;
