import { goodsReceipts } from './goods-receipt';
import { landedCosts } from './landed-cost';
import { purchaseAgreements } from './purchase-agreement';
import { purchaseOrders } from './purchase-order';
import { purchaseRequests } from './purchase-request';
import { purchaseReturns } from './purchase-return';
import { requestsForQuotation } from './request-for-quotation';
import { scorecardCriteria } from './scorecard-criterion';
import { suppliers } from './supplier';
import { supplierEvaluations } from './supplier-evaluation';
import { supplierGroups } from './supplier-group';
import { supplierPrices } from './supplier-price';
import { supplierQuotations } from './supplier-quotation';
import { supplierScorecards } from './supplier-scorecard';

/** The purchasing module's resources. */
export const purchasingResources = [
  supplierGroups,
  suppliers,
  supplierPrices,
  purchaseRequests,
  requestsForQuotation,
  supplierQuotations,
  purchaseAgreements,
  purchaseOrders,
  goodsReceipts,
  purchaseReturns,
  landedCosts,
  scorecardCriteria,
  supplierScorecards,
  supplierEvaluations,
] as const;
