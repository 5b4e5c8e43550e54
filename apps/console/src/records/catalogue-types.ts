/**
 * The shape of `catalogue.gen.json`, the records browser's view of the registry (written by
 * `codegen.ts` from @erp/contract). The type lists are the contract's own, imported as types
 * only: the console never imports the contract at run time.
 */
import type { FieldType, FilterOperator } from '@erp/contract/fields';

export type { FieldType, FilterOperator } from '@erp/contract/fields';

/** One field; flags are present only when true, so the file stays small. */
export interface FieldInfo {
  name: string;
  type: FieldType;
  required?: true;
  filterable?: true;
  sortable?: true;
  /** Set by the server (id, number, status, totals, timestamps): shown, never sent. */
  readOnly?: true;
  description?: string;
  /** An enum's values. */
  values?: string[];
  /** A reference's target: a resource name, or `user` (a member of the tenant). */
  ref?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  /** The fields of one line of a `lines` field. */
  fields?: FieldInfo[];
  /**
   * The fields of a line the server sets (SPEC §18): the line it was made from
   * (`source_line_id`), what its targets counted (`delivered_quantity`…). Shown, never sent.
   */
  lineReadOnly?: FieldInfo[];
  maxItems?: number;
}

export interface ActionInfo {
  name: string;
  from: string[];
  to: string;
  description?: string;
  /** The action posts (stamps `posted_at`): its target is the posted state. */
  posts?: true;
}

export interface LifecycleInfo {
  initial: string;
  /** States in which the record may be edited or deleted. */
  editable: string[];
  states: string[];
  actions: ActionInfo[];
  /**
   * A document that allocations settle (SPEC §17): from `from`, its status follows its
   * `amount_due_cents` (`partial`, then `full` at 0).
   */
  settlement?: { from: string; partial: string; full: string };
}

/** Where the journal entries of a document point back at it (SPEC §17). */
export type PostingLinkInfo = { column: string } | { source_type: string };

/** A resource's part in the books, from its declaration's `ledgerRole` and `postings`. */
export interface BooksInfo {
  /** `entry`: journal entries; `payment`: payments; `allocation`: payment allocations. */
  role?: 'entry' | 'payment' | 'allocation';
  /** How its postings name it, when its actions post. */
  link?: PostingLinkInfo;
  /** The field naming its party (`customer_id`, `supplier_id`), when one party posts. */
  party?: string;
  /**
   * The side its party's line posts on (an invoice debits the receivable): one side, or one
   * per value of a field (a payment's `direction`). What settles it posts the other side.
   */
  partySide?: PartySideInfo;
}

export type LedgerSide = 'debit' | 'credit';

/** One side for every record, or the side each value of `field` posts. */
export type PartySideInfo = LedgerSide | { field: string; sides: Record<string, LedgerSide> };

/**
 * A conversion (SPEC §18): `POST /{path}/{id}/{route}` makes a draft of `target` of what remains
 * of the lines; the target's `link` field names the source, its lines' quantities count in the
 * source lines' `counts`.
 */
export interface ConversionInfo {
  name: string;
  /** The route's last segment (`make-delivery`). */
  route: string;
  target: string;
  /** Source statuses it may be made from. */
  from: string[];
  link: string;
  counts: string;
  /** Only lines of goods (products that are not services) are taken. */
  goods?: true;
}

export interface ResourceInfo {
  name: string;
  path: string;
  module: string;
  description: string;
  /** The field that names a record in lists, titles and reference pickers. */
  label: string;
  fields: FieldInfo[];
  lifecycle?: LifecycleInfo;
  books?: BooksInfo;
  /** The drafts of other documents it converts into (SPEC §18). */
  conversions?: ConversionInfo[];
  /** Written by the server only (the stock ledger, the stock levels): no form, no delete. */
  readOnly?: true;
}

export interface CatalogueInfo {
  /** Modules in the product's order. */
  modules: string[];
  /** The list operators of each field type (SPEC §6), from the contract's field-type table. */
  operators: Record<FieldType, FilterOperator[]>;
  resources: ResourceInfo[];
}
