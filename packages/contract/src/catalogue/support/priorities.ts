/** Ticket priorities, lowest first: SLA targets, escalation rules and tickets share them. */
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
