import { assets } from './asset';
import { assetCategories } from './asset-category';
import { assetCounts } from './asset-count';
import { assetDisposals } from './asset-disposal';
import { assetInsurancePolicies } from './asset-insurance-policy';
import { assetLeases } from './asset-lease';
import { assetLocations } from './asset-location';
import { assetMovements } from './asset-movement';
import { assetRepairs } from './asset-repair';
import { assetRevaluations } from './asset-revaluation';
import { depreciationEntries } from './depreciation-entry';
import { depreciationSchedules } from './depreciation-schedule';
import { maintenancePlans } from './maintenance-plan';
import { maintenanceRequests } from './maintenance-request';
import { maintenanceTeams } from './maintenance-team';

/** The assets module's resources: fixed assets, their depreciation and their maintenance. */
export const assetsResources = [
  assetCategories,
  assetLocations,
  assets,
  depreciationSchedules,
  depreciationEntries,
  assetMovements,
  assetRevaluations,
  assetDisposals,
  maintenanceTeams,
  maintenancePlans,
  maintenanceRequests,
  assetRepairs,
  assetInsurancePolicies,
  assetLeases,
  assetCounts,
] as const;
