/**
 * What a document posts, as data (SPEC §17). A resource declares its posting rules beside its
 * lifecycle, as Business Central's posting setups and Frappe's controllers do; one posting
 * engine (apps/portal/src/ledger) reads them, writes the entry, checks it and reverses it.
 */

/** The default accounts of Settings → Accounting, each overridable where SPEC §17 says. */
export const ACCOUNT_SETTINGS = [
  'receivable',
  'payable',
  'revenue',
  'expense',
  'vat_collected',
  'vat_deductible',
  'stock',
  'stock_received_not_billed',
  'cost_of_goods_sold',
  'exchange_gain',
  'exchange_loss',
  'write_off',
] as const;
export type AccountSetting = (typeof ACCOUNT_SETTINGS)[number];

/**
 * Where a leg's account is read before falling back on the setting: the party's own account
 * (a customer's `receivable_account_id`, a supplier's `payable_account_id`), the line's
 * product (`revenue_account_id`, `expense_account_id`), the tax's `account_id`, the bank
 * journal's `default_account_id`.
 */
export type AccountOverride = 'party' | 'product_revenue' | 'product_expense' | 'tax' | 'journal';

/** An override, a setting, or both (the override first); a bank leg has only its journal's. */
export type AccountRule =
  | { setting: AccountSetting; override?: AccountOverride }
  | { setting?: undefined; override: 'journal' };

/**
 * How much a leg posts: the document's `total_cents` (one line), each line's net (one line per
 * account), each tax's amount (one line per tax and rate), or the record's `amount_cents`.
 */
export type LegAmount = 'total' | 'line_net' | 'tax' | 'amount';

export interface PostingLeg {
  side: 'debit' | 'credit';
  amount: LegAmount;
  account: AccountRule;
  /** The line carries the document's party (receivable and payable lines). */
  party?: boolean;
  /**
   * A `line_net` leg's lines of received goods (SPEC §18: a stockable product's line made from an
   * order line) post their order value to this setting instead (the goods' receipt credited it),
   * and only the difference from the order's price to the leg's account.
   */
  received?: AccountSetting;
}

/**
 * The action a settled record's history and `status_changed` event name when an allocation (or
 * its deletion) moved its amount due and status: no lifecycle action sets those (SPEC §17).
 */
export const SETTLE_ACTION = 'settle';

/**
 * A party's own account, overriding the setting (SPEC §17): the resource and field holding it,
 * and the account's `sub_type`, which it must have (receivable and payable accounts are the
 * parties' ledgers: their lines name their party, and party lines post only to them).
 */
export const PARTY_ACCOUNTS = {
  customer: {
    resource: 'customer',
    table: 'customers',
    field: 'receivable_account_id',
    subType: 'receivable',
  },
  supplier: {
    resource: 'supplier',
    table: 'suppliers',
    field: 'payable_account_id',
    subType: 'payable',
  },
} as const;

export type JournalKind = 'sales' | 'purchases' | 'bank' | 'cash' | 'miscellaneous';

/** Where the entry points back at its document: a column of `journal_entries`, or a source type. */
export type PostingLink =
  | { column: 'invoice_id' | 'supplier_invoice_id' | 'payment_id' }
  | { source_type: string };

export interface PostingRule {
  /** The lifecycle action that posts. */
  action: string;
  /** The lifecycle action that reverses what `action` posted. */
  reverse: string;
  /** The document's date field: the entry's date. */
  date: string;
  /** The document's journal field, and the kind of journal taken when it is empty. */
  journal: { field: string; kind: JournalKind };
  /** The document's party: `customer_id` or `supplier_id`. */
  party: { kind: 'customer' | 'supplier'; field: string };
  /** The document's due date (receivable and payable lines carry it), if any. */
  due?: string;
  link: PostingLink;
  /** Only records where `field` equals `equals` (a payment's direction). */
  when?: { field: string; equals: string };
  legs: readonly PostingLeg[];
}

const flip = (side: PostingLeg['side']) => (side === 'debit' ? 'credit' : 'debit');

/** The mirror of a rule (a credit note of an invoice, a debit note of a supplier invoice). */
export function mirrorPosting(rule: PostingRule, changes: Partial<PostingRule>): PostingRule {
  return { ...rule, ...changes, legs: rule.legs.map((leg) => ({ ...leg, side: flip(leg.side) })) };
}

/** A customer document: debit receivable its total; credit revenue its nets and VAT its taxes. */
export function salesPosting(
  options: Pick<PostingRule, 'action' | 'reverse' | 'date' | 'due' | 'link'>,
): PostingRule {
  return {
    ...options,
    journal: { field: 'journal_id', kind: 'sales' },
    party: { kind: 'customer', field: 'customer_id' },
    legs: [
      {
        side: 'debit',
        amount: 'total',
        account: { setting: 'receivable', override: 'party' },
        party: true,
      },
      {
        side: 'credit',
        amount: 'line_net',
        account: { setting: 'revenue', override: 'product_revenue' },
      },
      { side: 'credit', amount: 'tax', account: { setting: 'vat_collected', override: 'tax' } },
    ],
  };
}

/** A supplier document: debit expense its nets and deductible VAT its taxes; credit payable. */
export function purchasePosting(
  options: Pick<PostingRule, 'action' | 'reverse' | 'date' | 'due' | 'link'>,
): PostingRule {
  return {
    ...options,
    journal: { field: 'journal_id', kind: 'purchases' },
    party: { kind: 'supplier', field: 'supplier_id' },
    legs: [
      {
        side: 'debit',
        amount: 'line_net',
        account: { setting: 'expense', override: 'product_expense' },
        received: 'stock_received_not_billed',
      },
      { side: 'debit', amount: 'tax', account: { setting: 'vat_deductible', override: 'tax' } },
      {
        side: 'credit',
        amount: 'total',
        account: { setting: 'payable', override: 'party' },
        party: true,
      },
    ],
  };
}

/**
 * A payment: incoming from a customer debits the bank journal's account and credits the
 * customer's receivable; outgoing to a supplier debits the supplier's payable and credits the
 * bank. Refunds go the other way on the same accounts: outgoing to a customer (a refund of a
 * credit note) debits the receivable, incoming from a supplier (of a debit note) credits the
 * payable. A payment names one party: exactly one rule applies.
 */
export function paymentPostings(): PostingRule[] {
  const base = {
    action: 'post',
    reverse: 'cancel',
    date: 'paid_on',
    journal: { field: 'journal_id', kind: 'bank' as const },
    link: { column: 'payment_id' as const },
  };
  const bank: AccountRule = { override: 'journal' };
  const rule = (direction: 'incoming' | 'outgoing', kind: 'customer' | 'supplier'): PostingRule => {
    const party: PostingLeg = {
      side: direction === 'incoming' ? 'credit' : 'debit',
      amount: 'amount',
      account: { setting: kind === 'customer' ? 'receivable' : 'payable', override: 'party' },
      party: true,
    };
    const money: PostingLeg = { side: flip(party.side), amount: 'amount', account: bank };
    return {
      ...base,
      when: { field: 'direction', equals: direction },
      party: { kind, field: `${kind}_id` },
      legs: direction === 'incoming' ? [money, party] : [party, money],
    };
  };
  return [
    rule('incoming', 'customer'),
    rule('outgoing', 'supplier'),
    rule('outgoing', 'customer'),
    rule('incoming', 'supplier'),
  ];
}
