/**
 * Every status a record can be in: one closed vocabulary of French identifiers, so that a
 * filter such as `status=eq.annule` means the same on every resource.
 *
 * Spelling: lower case, no accents, words joined by `_`. Gender and number: masculine singular,
 * agreeing with « le document » / « l'enregistrement » whatever the resource's own noun: an
 * invoice (« une facture ») that was cancelled is `annule`, not `annulee`. One word per meaning:
 * a record waiting for someone's approval is `en_attente_approbation` everywhere, a closed
 * period, ticket or project is `ferme`. A new status is a new row here, with its meaning.
 */
export const STATUSES = {
  brouillon: 'Draft: being prepared, editable, has no effect yet.',
  nouveau: 'New: received, not looked at yet (leads, requests).',
  qualifie: 'Qualified: worth pursuing (leads, opportunities).',
  envoye: 'Sent to the other party (quotes, purchase orders, requests for quotation).',
  accepte: 'Accepted by the other party.',
  refuse: 'Declined by the other party.',
  confirme: 'Confirmed: binding for both parties.',
  en_attente_approbation: 'Waiting for an approver.',
  approuve: 'Approved.',
  rejete: 'Rejected by the approver; may be reopened as a draft.',
  valide: 'Validated: final, has taken effect (receipts, stock moves, counts).',
  comptabilise: 'Posted to the general ledger.',
  emis: 'Issued to the other party (invoices, credit notes).',
  paye: 'Paid in full.',
  partiellement_paye: 'Partly paid: allocations settle part of it, the rest is still due.',
  rembourse: 'Paid back (expenses, returns).',
  impute: 'Allocated to the documents it settles (payments).',
  rapproche: 'Matched with a ledger entry (bank transactions).',
  ouvert: 'Open: accepts entries or work (periods, projects).',
  planifie: 'Planned: scheduled, not started.',
  lance: 'Released to the shop floor (production).',
  en_cours: 'In progress.',
  en_attente: 'On hold, waiting for someone else.',
  expedie: 'Shipped, on its way.',
  livre: 'Delivered.',
  recu: 'Received.',
  facture: 'Invoiced.',
  termine: 'Done.',
  resolu: 'Resolved; may still be reopened.',
  ferme: 'Closed: nothing more happens to it (periods, tickets, projects).',
  converti: 'Converted into another record (a lead into a customer).',
  gagne: 'Won (opportunities).',
  perdu: 'Lost (leads, opportunities).',
  publie: 'Published (articles, price lists).',
  actif: 'Active: in use.',
  suspendu: 'Suspended for a while.',
  archive: 'Archived: kept for history, no longer offered.',
  expire: 'Past its end date.',
  resilie: 'Terminated before its end (contracts).',
  en_service: 'In service (assets).',
  en_maintenance: 'Under maintenance (assets).',
  cede: 'Sold or scrapped (assets).',
  annule: 'Cancelled: void, kept for history.',
} as const;

export type Status = keyof typeof STATUSES;

/** Whether a string is a status of the vocabulary. */
export function isStatus(value: string): value is Status {
  return Object.hasOwn(STATUSES, value);
}

/**
 * Statuses that were renamed, old → new: the schema-migration generator rewrites stored rows
 * and the status checks from this list, so a rename is never a destructive change.
 */
export const RENAMED_STATUSES: Readonly<Record<string, Status>> = {
  emise: 'emis',
  payee: 'paye',
  annulee: 'annule',
  soumis: 'en_attente_approbation',
};
