import { catalogue } from '../catalogue/index';
import { defineResource, type Resource } from '../registry/define';
import { decimal, money, reference, text, timestamp, uuid } from '../registry/fields';

/**
 * The stock ledger and the stock levels (SPEC §18): written by the stock engine only (the
 * application's database role may only read them), read like any resource: lists with the
 * filter syntax and keyset pages, the export, a record by id. Not in the catalogue: their tables
 * are migration 0035's own, with what PostgreSQL keeps on them (no location below zero).
 */
export const stockLedgerEntries = defineResource({
  name: 'stock_ledger_entry',
  path: 'stock-ledger',
  module: 'inventory',
  description:
    'One movement of a stockable product at an internal location: a validated receipt, a shipped delivery, a validated move, adjustment or transfer, a received sales return, a shipped purchase return, or their cancellation (the opposite entry). Written by the stock engine, never changed.',
  readOnly: true,
  fields: {
    product_id: reference('product', { required: true, filterable: true }),
    warehouse_id: reference('warehouse', { required: true, filterable: true }),
    location_id: reference('stock_location', { required: true, filterable: true }),
    quantity: decimal({
      required: true,
      filterable: true,
      description: 'Signed: positive enters the location, negative leaves it.',
      example: '-2',
    }),
    unit_cost_cents: decimal({
      required: true,
      description:
        'The cost of one unit in company currency minor units, exact (`value_cents` ÷ `quantity`).',
      example: '8200',
    }),
    value_cents: money({
      required: true,
      filterable: true,
      description:
        'The value it adds to (removes from) the stock, in company currency minor units: what it posts to the stock account.',
      example: -16400,
    }),
    on_hand_after: decimal({
      required: true,
      description: 'On hand at the location after it (a running balance).',
      example: '38',
    }),
    source_type: text({
      required: true,
      filterable: true,
      maxLength: 64,
      description: 'The document that moved it: `delivery`, `goods_receipt`, `stock_move`…',
      example: 'delivery',
    }),
    source_id: uuid({ required: true, filterable: true, description: 'The document.' }),
    source_line_id: uuid({ description: "The document's line, if it has lines." }),
    posted_at: timestamp({
      required: true,
      filterable: true,
      sortable: true,
      description: 'When it was written.',
    }),
  },
});

export const stockLevels = defineResource({
  name: 'stock_level',
  path: 'stock-levels',
  module: 'inventory',
  description:
    'What one internal location holds of one product: on hand (the sum of its stock ledger), reserved by confirmed sales orders, available to promise, and its value. One row per product and location that ever held stock; never below zero.',
  readOnly: true,
  fields: {
    product_id: reference('product', { required: true, filterable: true }),
    warehouse_id: reference('warehouse', { required: true, filterable: true }),
    location_id: reference('stock_location', { required: true, filterable: true }),
    on_hand: decimal({
      required: true,
      filterable: true,
      sortable: true,
      description: 'Σ of its stock ledger; never negative.',
      example: '40',
    }),
    reserved: decimal({
      required: true,
      filterable: true,
      description: 'Reserved by confirmed sales orders, not yet shipped.',
      example: '6',
    }),
    available: decimal({
      required: true,
      filterable: true,
      sortable: true,
      description:
        '`on_hand` − `reserved`: what can still be promised (negative when over-promised).',
      example: '34',
    }),
    value_cents: money({
      required: true,
      filterable: true,
      description:
        'Its value in company currency minor units, by the product’s valuation method (0 when nothing is on hand).',
      example: 328000,
    }),
  },
});

/** The engine's read-only resources, served beside the catalogue. */
export const stockViews = [stockLedgerEntries, stockLevels] as const;

/** Every resource the API serves: the catalogue and the engine's read-only ones. */
export const servedResources: readonly Resource[] = [...catalogue, ...stockViews];
