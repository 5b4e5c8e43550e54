import type { AccountSetting } from '../ledger/postings';
import type { Status } from '../registry/statuses';

/**
 * Goods and document flow as data (SPEC §18): which document converts into which, what each
 * side counts, how an order's status follows its goods, and what a stock document's actions
 * move. One conversion engine and one stock engine (apps/portal/src/resources/goods) read them.
 */

/**
 * The quantities a source line counts, read-only on its lines: what its targets took. The
 * database keeps each between 0 and the line's `quantity` (a CHECK over the row's own lines).
 */
export const COUNTED_QUANTITIES = [
  'ordered_quantity',
  'delivered_quantity',
  'invoiced_quantity',
  'received_quantity',
  'billed_quantity',
  'credited_quantity',
] as const;
export type CountedQuantity = (typeof COUNTED_QUANTITIES)[number];

/** The action a source's history and `status_changed` event name when its targets moved it. */
export const FOLLOW_ACTION = 'follow';

/**
 * `POST /{source}/{id}/<name>` makes a draft of `target` of what remains (SPEC §18).
 */
export interface ConversionDeclaration {
  /** snake_case; the route's last segment is its kebab-case (`make_delivery` → `make-delivery`). */
  name: string;
  /** The target resource. */
  target: string;
  /** Source statuses it may be made from (else 409 `transition_invalide`). */
  from: readonly Status[];
  /** The target's field naming the source. */
  link: string;
  /** The source lines' quantity the target's lines count. */
  counts: CountedQuantity;
  /** The target's action that counts its lines on the source. */
  countedBy: string;
  /** The target's action that gives them back (from a state its `countedBy` led to). */
  uncountedBy?: string;
  /** Only lines of goods (stockable or consumable products) are copied: a delivery, a receipt. */
  goods?: boolean;
  /** Target date fields set to the day of the conversion. */
  today?: readonly string[];
  /** A target date: the day of the conversion plus the source's payment term (`days`). */
  due?: { field: string; days: string };
  /** Values of target fields the source has no counterpart of (PATCH the draft to change them). */
  defaults?: Record<string, unknown>;
}

/**
 * A status that follows the goods (SPEC §18): a record in `after` whose lines (of goods only,
 * with `goods`) are all fully counted in `when` moves to `status`; back to `after` when they no
 * longer are.
 */
export interface ProgressRule {
  status: Status;
  after: Status;
  when: CountedQuantity;
  goods?: boolean;
}

/**
 * A lifecycle action kept as a shortcut (Business Central's "Ship" and "Invoice"): it makes the
 * conversion of everything that remains and runs the target's `runs` action. With `basis`, a
 * goods line gives what that other count reached, less what was counted (an invoice of what was
 * delivered and not yet invoiced).
 */
export interface ShortcutDeclaration {
  conversion: string;
  runs: string;
  basis?: CountedQuantity;
}

/**
 * Where stock comes from or goes to: a location field (stock is held only at `internal`
 * locations; any other usage is the outside), a warehouse's main internal location (its
 * `main_location_id`, else its first internal location by code), optionally overridden by a
 * location field of the document or of the line, or the outside (suppliers, customers).
 */
export type StockPlace =
  | { location: string }
  | { warehouse: string; location?: string; lineLocation?: string }
  | 'outside';

/**
 * What a stock document's action moves (SPEC §18): its lines (or the record itself, a stock
 * move) from one place to another, and the entry it posts: the value moved between the stock
 * account and `counterpart` (the document's `counterpart.field` account when set).
 */
export interface StockEffect {
  action: string;
  /** The document's date field: the date of the entry it posts (a reversal posts today). */
  date: string;
  /** The action that moves it all back (the opposite entries). */
  reverse?: string;
  /** The lines field; absent, the record is its own single line. */
  lines?: string;
  from: StockPlace;
  to: StockPlace;
  /** A line's quantity may be negative: it then moves the other way (adjustments). */
  signed?: boolean;
  /** A line whose boolean field is `false` moves nothing (a return not put back in stock). */
  unless?: string;
  /**
   * An incoming line's unit cost: the source line's price in company currency (a receipt of
   * an order), else the line's own `unit_cost_cents` field, else the product's cost.
   */
  cost?: 'source_line' | 'field';
  counterpart: { setting: AccountSetting; field?: string };
}

/** A sales order's reservation: confirming reserves its goods lines at its warehouse. */
export interface ReservationDeclaration {
  on: string;
  release: readonly string[];
  warehouse: string;
  /** The source lines' count that consumes the reservation (what was delivered). */
  consumedBy: CountedQuantity;
}
