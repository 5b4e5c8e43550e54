import { z } from '@hono/zod-openapi';
import { ACCOUNT_SETTINGS } from '../ledger/postings';
import { UuidSchema } from './common';

const accountsShape = Object.fromEntries(
  ACCOUNT_SETTINGS.map((name) => [name, z.union([UuidSchema, z.null()])]),
) as Record<(typeof ACCOUNT_SETTINGS)[number], z.ZodUnion<[typeof UuidSchema, z.ZodNull]>>;

const CurrencyCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 code in capitals')
  .openapi({ example: 'EUR' });

export const AccountingSettingsSchema = z
  .object({
    company_currency: CurrencyCodeSchema.openapi({
      description: 'The currency of the books: journal lines are in it.',
    }),
    accounts: z.object(accountsShape).openapi({
      description:
        "The default account of each posting (null: unset; posting then answers `compte_invalide` with `params.setting`). A customer's `receivable_account_id`, a supplier's `payable_account_id`, a product's `revenue_account_id` and `expense_account_id`, a tax's `account_id` and a bank journal's `default_account_id` override them.",
    }),
  })
  .openapi('AccountingSettings');

export const UpdateAccountingSettingsBodySchema = z
  .strictObject({
    company_currency: CurrencyCodeSchema.optional(),
    accounts: z.strictObject(accountsShape).partial().optional(),
  })
  .openapi('UpdateAccountingSettingsRequest');

const DateSchema = z.iso.date().openapi({ example: '2026-03-31' });
const Cents = z.number().int();

export const TrialBalanceQuerySchema = z.object({
  from: DateSchema.optional().openapi({
    description: 'First day (default: 1 January of `to`’s year).',
  }),
  to: DateSchema.optional().openapi({ description: 'Last day (default: today).' }),
});

export const TrialBalanceSchema = z
  .object({
    currency: z.string(),
    from: DateSchema,
    to: DateSchema,
    accounts: z.array(
      z.object({
        account_id: z.uuid(),
        code: z.string(),
        name: z.string(),
        opening_cents: Cents,
        debit_cents: Cents,
        credit_cents: Cents,
        closing_cents: Cents,
      }),
    ),
    totals: z.object({
      opening_cents: Cents,
      debit_cents: Cents,
      credit_cents: Cents,
      closing_cents: Cents,
    }),
  })
  .openapi('TrialBalance');

export const GeneralLedgerQuerySchema = z.object({
  account_id: z.uuid().openapi({ description: 'The account whose lines are listed.' }),
  from: DateSchema.optional().openapi({
    description: 'First day (default: 1 January of `to`’s year).',
  }),
  to: DateSchema.optional().openapi({ description: 'Last day (default: today).' }),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .openapi({ description: 'Default 100.' }),
  cursor: z
    .string()
    .max(500)
    .optional()
    .openapi({ description: 'The `next_cursor` of the page before.' }),
});

export const GeneralLedgerSchema = z
  .object({
    account: z.object({ id: z.uuid(), code: z.string(), name: z.string() }),
    from: DateSchema,
    to: DateSchema,
    opening_cents: Cents.openapi({ description: 'Balance before `from` (debit − credit).' }),
    data: z.array(
      z.object({
        entry_id: z.uuid(),
        entry_number: z.string(),
        entry_date: DateSchema,
        journal_id: z.uuid(),
        line_no: z.number().int(),
        label: z.union([z.string(), z.null()]),
        debit_cents: Cents,
        credit_cents: Cents,
        balance_cents: Cents.openapi({ description: 'The running balance after this line.' }),
        customer_id: z.union([z.uuid(), z.null()]),
        supplier_id: z.union([z.uuid(), z.null()]),
        document: z
          .union([z.object({ type: z.string(), id: z.uuid() }), z.null()])
          .openapi({ description: 'The document the entry records.' }),
      }),
    ),
    next_cursor: z.union([z.string(), z.null()]),
  })
  .openapi('GeneralLedger');

export const AgedQuerySchema = z.object({
  at: DateSchema.optional().openapi({
    description: 'The day the ages are counted at (default: today).',
  }),
});

const AgedAmounts = {
  not_due_cents: Cents,
  d1_30_cents: Cents,
  d31_60_cents: Cents,
  d61_90_cents: Cents,
  over_90_cents: Cents,
  total_cents: Cents,
};

export const AgedBalanceSchema = z
  .object({
    at: DateSchema,
    currency: z.string(),
    parties: z.array(z.object({ party_id: z.uuid(), name: z.string(), ...AgedAmounts })),
    totals: z.object(AgedAmounts),
  })
  .openapi('AgedBalance');

export const FecQuerySchema = z.object({
  fiscal_year_id: z.uuid().openapi({ description: 'The fiscal year exported.' }),
});
