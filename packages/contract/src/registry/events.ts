import type { Resource } from './define';

/** The 27 business events of SPEC §7; the registry must record exactly these. */
export const SPEC_EVENT_NAMES = [
  'quote.created',
  'quote.status_changed',
  'sales_order.created',
  'sales_order.status_changed',
  'delivery.created',
  'delivery.status_changed',
  'invoice.created',
  'invoice.status_changed',
  'credit_note.created',
  'credit_note.status_changed',
  'payment.created',
  'purchase_order.created',
  'purchase_order.status_changed',
  'purchase_order.approval_requested',
  'purchase_order.approved',
  'purchase_order.rejected',
  'goods_receipt.created',
  'goods_receipt.status_changed',
  'supplier_invoice.created',
  'supplier_invoice.status_changed',
  'supplier_invoice.approved',
  'production_order.created',
  'production_order.status_changed',
  'expense_report.created',
  'expense_report.approved',
  'expense_report.rejected',
  'lead.created',
] as const;
export type EventName = (typeof SPEC_EVENT_NAMES)[number];

export interface CatalogueEvent {
  name: string;
  description: string;
  resource: string;
  action: string;
}

/** The event catalogue derived from the registry: what each resource's changes record. */
export function eventCatalogue(resources: Iterable<Resource>): CatalogueEvent[] {
  const events: CatalogueEvent[] = [];
  for (const r of resources) {
    const label = r.name.replace(/_/g, ' ');
    for (const name of r.eventNames) {
      const action = name.slice(r.name.length + 1);
      const description =
        action === 'created'
          ? `A ${label} was created.`
          : action === 'status_changed'
            ? `A ${label} changed status (\`data.previous_status\` → \`data.object.status\`).`
            : `A ${label}: ${action.replace(/_/g, ' ')}.`;
      events.push({ name, description, resource: r.name, action });
    }
  }
  return events;
}
