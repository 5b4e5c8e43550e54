import { blanketOrders } from './blanket-order';
import { coupons } from './coupon';
import { customerGroups } from './customer-group';
import { deliveries } from './delivery';
import { incoterms } from './incoterm';
import { priceLists } from './price-list';
import { priceListItems } from './price-list-item';
import { promotions } from './promotion';
import { quotes } from './quote';
import { salesCommissions } from './sales-commission';
import { salesOrders } from './sales-order';
import { salesReturns } from './sales-return';
import { salesSubscriptions } from './sales-subscription';
import { salesTargets } from './sales-target';
import { salesTeams } from './sales-team';
import { salespeople } from './salesperson';
import { shippingMethods } from './shipping-method';

/** The sales module's resources. */
export const salesResources = [
  quotes,
  salesOrders,
  deliveries,
  priceLists,
  priceListItems,
  customerGroups,
  salesTeams,
  salespeople,
  salesTargets,
  salesCommissions,
  shippingMethods,
  incoterms,
  salesReturns,
  promotions,
  coupons,
  blanketOrders,
  salesSubscriptions,
] as const;
