import { cannedResponses } from './canned-response';
import { escalationRules } from './escalation-rule';
import { knowledgeArticles } from './knowledge-article';
import { knowledgeCategories } from './knowledge-category';
import { satisfactionRatings } from './satisfaction-rating';
import { serviceCalendars } from './service-calendar';
import { serviceContracts } from './service-contract';
import { serviceHolidays } from './service-holiday';
import { serviceItems } from './service-item';
import { serviceOrders } from './service-order';
import { slaPolicies } from './sla-policy';
import { supportChannels } from './support-channel';
import { supportTeams } from './support-team';
import { supportTeamMembers } from './support-team-member';
import { supportTickets } from './support-ticket';
import { ticketCategories } from './ticket-category';
import { ticketMessages } from './ticket-message';
import { warrantyClaims } from './warranty-claim';

/** The support module's resources (helpdesk, SLAs, knowledge base, service management). */
export const supportResources = [
  serviceCalendars,
  serviceHolidays,
  supportTeams,
  supportTeamMembers,
  ticketCategories,
  slaPolicies,
  supportChannels,
  serviceItems,
  serviceContracts,
  supportTickets,
  ticketMessages,
  cannedResponses,
  knowledgeCategories,
  knowledgeArticles,
  warrantyClaims,
  serviceOrders,
  satisfactionRatings,
  escalationRules,
] as const;
