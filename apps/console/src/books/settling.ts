/**
 * What may settle a document (SPEC §17), read from the catalogue: the payments going the way
 * that settles it, and the other settled documents of the same party posting the other side
 * (a credit note for an invoice, the invoice for a credit note; a debit note and a supplier
 * invoice likewise). A document's party line posts one side (an invoice debits the
 * receivable); what settles it posts the other. No resource is named here.
 */
import { type Catalogue, resourceNoun } from '../records/catalogue';
import type { LedgerSide, ResourceInfo } from '../records/catalogue-types';
import { postedState, referenceTo } from './books-catalogue';

type Row = Record<string, unknown>;

/** One kind of record that may settle a document, and how to list those that can. */
export interface SettlingSource {
  /** Payments, credit notes, invoices… */
  resource: ResourceInfo;
  /** The allocation's field naming it (`payment_id`, `credit_note_id`). */
  field: string;
  /** Its field holding what it still has to settle with. */
  left: 'unallocated_cents' | 'amount_due_cents';
  /** The list filters of its records that may settle this one. */
  query: Record<string, string>;
}

const other = (side: LedgerSide): LedgerSide => (side === 'debit' ? 'credit' : 'debit');

/**
 * The sources that may settle `record` of `resource` through `allocations`, payments first:
 * posted, of its party and currency, with something left, going the right way.
 */
export function settlingSources(
  catalogue: Catalogue,
  resource: ResourceInfo,
  allocations: ResourceInfo,
  record: Row,
): SettlingSource[] {
  const { party, partySide } = resource.books ?? {};
  if (!party || typeof partySide !== 'string') return [];
  const wanted = other(partySide);
  const common = (target: ResourceInfo): Record<string, string> => {
    const query: Record<string, string> = {};
    if (target.fields.some((f) => f.name === party)) query[party] = `eq.${String(record[party])}`;
    if (typeof record.currency === 'string') query.currency = `eq.${record.currency}`;
    return query;
  };
  const sources = catalogue.resources.flatMap((target): SettlingSource[] => {
    const field = target === resource ? undefined : referenceTo(allocations, target);
    const books = target.books;
    if (!field || !books) return [];
    if (books.role === 'payment') {
      const byValue = books.partySide;
      if (!byValue || typeof byValue === 'string') return [];
      const values = Object.keys(byValue.sides).filter((v) => byValue.sides[v] === wanted);
      const posted = postedState(target);
      if (!values.length || !posted) return [];
      return [
        {
          resource: target,
          field: field.name,
          left: 'unallocated_cents',
          query: {
            ...common(target),
            [byValue.field]: values.length === 1 ? `eq.${values[0]}` : `in.(${values.join(',')})`,
            status: `eq.${posted}`,
            unallocated_cents: 'gt.0',
          },
        },
      ];
    }
    const settlement = target.lifecycle?.settlement;
    if (!settlement || books.party !== party || books.partySide !== wanted) return [];
    return [
      {
        resource: target,
        field: field.name,
        left: 'amount_due_cents',
        query: {
          ...common(target),
          status: `in.(${settlement.from},${settlement.partial})`,
          amount_due_cents: 'gt.0',
        },
      },
    ];
  });
  return sources.sort(
    (a, b) =>
      Number(b.resource.books?.role === 'payment') - Number(a.resource.books?.role === 'payment'),
  );
}

/** `payment or credit note`: the nouns of what may settle a document. */
export function sourcesNoun(sources: readonly SettlingSource[]): string {
  return sources.map((s) => resourceNoun(s.resource)).join(' or ');
}
