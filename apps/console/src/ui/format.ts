const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** `24 Nov 2026, 14:05` in the browser's time zone; an em dash for nothing. */
export function formatDateTime(value: string | null | undefined): string {
  return value ? dateTime.format(new Date(value)) : '—';
}

/** A calendar date (`2026-03-05`) as `5 Mar 2026`, never shifted by the time zone. */
export function formatDate(value: string | null | undefined): string {
  return value ? date.format(new Date(`${value}T00:00:00Z`)) : '—';
}

// Words people write in capitals (or their own way) in labels.
const ACRONYMS: Record<string, string> = {
  bic: 'BIC',
  crm: 'CRM',
  hr: 'HR',
  iban: 'IBAN',
  id: 'ID',
  sku: 'SKU',
  sla: 'SLA',
  uom: 'UoM',
  url: 'URL',
  vat: 'VAT',
};

/** `sales_order` → `Sales order`; `customer_id` → `Customer`; `uom-conversions` → `UoM conversions`. */
export function humanize(name: string): string {
  const text = name
    .replace(/_id$/, '')
    .replace(/_cents$/, '')
    .split(/[_-]+/)
    .map((word) => ACRONYMS[word] ?? word)
    .join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
