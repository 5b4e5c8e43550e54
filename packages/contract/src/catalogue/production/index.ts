import { billsOfMaterials } from './bill-of-materials';
import { downtimeEntries } from './downtime-entry';
import { finishedGoodsReceipts } from './finished-goods-receipt';
import { jobCards } from './job-card';
import { materialConsumptions } from './material-consumption';
import { productionOrders } from './production-order';
import { productionPlans } from './production-plan';
import { qualityAlerts } from './quality-alert';
import { qualityChecks } from './quality-check';
import { qualityPoints } from './quality-point';
import { routings } from './routing';
import { routingOperations } from './routing-operation';
import { scrapEntries } from './scrap-entry';
import { shopCalendars } from './shop-calendar';
import { shopCalendarHolidays } from './shop-calendar-holiday';
import { subcontractingOrders } from './subcontracting-order';
import { workCenters } from './work-center';
import { workCenterMaintenance } from './work-center-maintenance';
import { workOrders } from './work-order';

/** The production module's resources (manufacturing, quality, work-centre maintenance). */
export const productionResources = [
  productionOrders,
  shopCalendars,
  shopCalendarHolidays,
  workCenters,
  routings,
  routingOperations,
  billsOfMaterials,
  productionPlans,
  workOrders,
  jobCards,
  materialConsumptions,
  finishedGoodsReceipts,
  scrapEntries,
  downtimeEntries,
  workCenterMaintenance,
  qualityPoints,
  qualityChecks,
  qualityAlerts,
  subcontractingOrders,
] as const;
