import { customers } from './customer';
import { leads } from './lead';

/** The crm module's resources. */
export const crm = [leads, customers] as const;
