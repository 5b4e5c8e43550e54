import { activities } from './activity';
import { addresses } from './address';
import { appointments } from './appointment';
import { campaigns } from './campaign';
import { competitors } from './competitor';
import { contacts } from './contact';
import { customers } from './customer';
import { industries } from './industry';
import { leads } from './lead';
import { leadSources } from './lead-source';
import { lostReasons } from './lost-reason';
import { marketingLists } from './marketing-list';
import { marketingListMembers } from './marketing-list-member';
import { opportunities } from './opportunity';
import { pipelineStages } from './pipeline-stage';
import { territories } from './territory';

/** The crm module's resources. */
export const crmResources = [
  contacts,
  addresses,
  leads,
  customers,
  territories,
  industries,
  leadSources,
  lostReasons,
  competitors,
  pipelineStages,
  marketingLists,
  marketingListMembers,
  campaigns,
  opportunities,
  activities,
  appointments,
] as const;
