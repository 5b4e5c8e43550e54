import { addresses } from './address';
import { contacts } from './contact';
import { customers } from './customer';
import { leads } from './lead';

/** The crm module's resources. */
export const crmResources = [contacts, addresses, leads, customers] as const;
