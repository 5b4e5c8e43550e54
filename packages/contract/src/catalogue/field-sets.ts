import {
  date,
  decimal,
  enumOf,
  type FakeKind,
  type Field,
  integer,
  type LinesField,
  lines,
  money,
  reference,
  text,
  uuid,
} from '../registry/fields';

/** ISO 4217 code of the document's currency; amounts are in its minor units. */
export const currency = (required = true): Field =>
  text({
    required,
    filterable: true,
    maxLength: 3,
    description: 'ISO 4217 currency code; every amount is in its minor units.',
    example: 'EUR',
  });

/** Days between the document date and the payment due date (ERPNext payment terms, Odoo payment term). */
export const paymentTermsDays = (): Field =>
  integer({ min: 0, max: 365, description: 'Net payment term in days.', example: 30 });

export const notes = (): Field =>
  text({ maxLength: 5000, description: 'Free text printed on the document or kept internal.' });

/**
 * A postal address as flat columns (Odoo res.partner: street, street2, zip, city, state, country):
 * flat so integrators can filter on the city or the country.
 */
export function addressFields(prefix = ''): Record<string, Field> {
  const p = prefix ? `${prefix}_` : '';
  return {
    [`${p}street`]: text({ maxLength: 200, example: '12 rue de la Paix' }),
    [`${p}street2`]: text({ maxLength: 200 }),
    [`${p}postal_code`]: text({ maxLength: 20, example: '75002' }),
    [`${p}city`]: text({ maxLength: 100, filterable: true, example: 'Paris' }),
    [`${p}state`]: text({ maxLength: 100, description: 'State, region or province.' }),
    [`${p}country_code`]: text({
      maxLength: 2,
      filterable: true,
      description: 'ISO 3166-1 alpha-2 country code.',
      example: 'FR',
    }),
  };
}

interface LinesOptions {
  required?: boolean;
  description?: string;
}

/** The line of another document this one was made from (SPEC §18), set by a conversion. */
const sourced = () => ({
  source_line_id: uuid({
    description:
      'The line of the source document it was made from (a conversion); it counts on that line.',
  }),
});

const unitOfMeasure = (): Field =>
  text({ maxLength: 32, description: 'Unit the quantity is counted in.', example: 'Unit' });

/**
 * Priced line items (ERPNext Sales/Purchase Order Item, Odoo order lines): the document's
 * totals are computed from quantity × unit_price_cents and tax_rate.
 */
export function pricedLines(extra: Record<string, Field> = {}, o: LinesOptions = {}): LinesField {
  return lines(
    {
      product_id: reference('product', {
        description: 'The product sold or bought; empty for a free-text line.',
      }),
      description: text({ required: true, maxLength: 1000, example: 'Office chair, black' }),
      quantity: decimal({ required: true, min: 0, example: '2' }),
      unit_of_measure: unitOfMeasure(),
      unit_price_cents: money({
        required: true,
        description: 'Price of one unit before tax, in minor units (negative for a discount line).',
        example: 14900,
      }),
      tax_rate: decimal({
        required: true,
        min: 0,
        max: 100,
        description:
          "Tax rate in percent. With `tax_id`, the rate of that tax valid on the document's date replaces it when the document is posted.",
        example: '20',
      }),
      tax_id: reference('tax', {
        description:
          "The tax the line is subject to: its rate on the document's date, and the account its amount posts to.",
      }),
      ...extra,
    },
    {
      required: true,
      description: 'Line items; the totals are computed from them.',
      readOnly: sourced(),
      ...o,
    },
  );
}

/** Stock line items without prices (delivery notes, goods receipts, components). */
export function stockLines(extra: Record<string, Field> = {}, o: LinesOptions = {}): LinesField {
  return lines(
    {
      product_id: reference('product', { required: true }),
      description: text({ maxLength: 1000 }),
      quantity: decimal({ required: true, min: 0, example: '10' }),
      unit_of_measure: unitOfMeasure(),
      ...extra,
    },
    { required: true, description: 'Products and quantities moved.', readOnly: sourced(), ...o },
  );
}

/** The customer a sales document is for. */
export const customerReference = (): Field =>
  reference('customer', {
    required: true,
    filterable: true,
    example: '01935c1e-7b2a-7c3d-9e4f-a1b2c3d4e5f6',
  });

/** A short unique code people type and print (account numbers, currency codes, SKUs…). */
export const code = (example: string, o: { maxLength?: number; description?: string } = {}) =>
  text({
    required: true,
    filterable: true,
    sortable: true,
    maxLength: o.maxLength ?? 32,
    fake: 'code',
    example,
    ...(o.description ? { description: o.description } : {}),
  });

/** The name a record is listed under (required, filterable, sortable). */
export const title = (
  example: string,
  o: { maxLength?: number; description?: string; fake?: FakeKind } = {},
) =>
  text({
    required: true,
    filterable: true,
    sortable: true,
    maxLength: o.maxLength ?? 200,
    example,
    ...(o.description ? { description: o.description } : {}),
    ...(o.fake ? { fake: o.fake } : {}),
  });

/**
 * A foreign-currency document's rate (SPEC §17): units of the company currency per unit of the
 * document's; left out, the latest `exchange_rate` on or before the document's date applies.
 */
export const exchangeRate = () =>
  decimal({
    min: 0.000001,
    description:
      'Company currency per unit of `currency`; when left out for a foreign currency, the latest exchange rate on or before the date is taken at posting (422 `taux_de_change_manquant` if there is none).',
    example: '1.0825',
  });

/** A percentage between 0 and 100, exact (`"20"`, `"5.5"`). */
export const percent = (o: { required?: boolean; description?: string; example?: string } = {}) =>
  decimal({ min: 0, max: 100, example: '20', ...o });

/** The first and last day something is valid or runs. */
export const period = (required = true): Record<string, Field> => ({
  start_date: date({ required, filterable: true, sortable: required, example: '2026-01-01' }),
  end_date: date({ required, filterable: true, example: '2026-12-31' }),
});

/**
 * General-ledger lines (ERPNext Journal Entry Account, Odoo account.move.line, BC general journal
 * line): one account, a debit or a credit, the partner and the cost centre it concerns. The
 * document's lines balance: the debits sum to the credits.
 */
export function ledgerLines(extra: Record<string, Field> = {}, o: LinesOptions = {}): LinesField {
  return lines(
    {
      account_id: reference('account', { required: true }),
      label: text({ maxLength: 255, example: 'Facture INV-2026-00042' }),
      debit_cents: money({
        required: true,
        min: 0,
        description: 'Debit in minor units; 0 on a credit line.',
        example: 120000,
      }),
      credit_cents: money({
        required: true,
        min: 0,
        description: 'Credit in minor units; 0 on a debit line.',
        example: 0,
      }),
      customer_id: reference('customer', {
        description: 'The customer a receivable line is owed by.',
      }),
      supplier_id: reference('supplier', {
        description: 'The supplier a payable line is owed to.',
      }),
      cost_center_id: reference('cost_center', { description: 'Where the amount is reported.' }),
      ...extra,
    },
    {
      required: true,
      description: 'Debit and credit lines; the debits sum to the credits.',
      ...o,
    },
  );
}

/** Days of the week, as calendars list them (ISO 8601 order). */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

/** The IANA time zone a calendar's hours are read in. */
export const timeZone = (): Field =>
  text({
    required: true,
    maxLength: 64,
    description: 'IANA time zone the hours are read in.',
    example: 'Europe/Paris',
  });

/**
 * Opening or working hours by weekday (Odoo resource.calendar.attendance, ERPNext workstation
 * working hours and SLA support hours, BC shop calendar): hours as exact decimals after
 * midnight, as Odoo keeps them, so 8.5 is 08:30. A day with two lines has a break.
 */
export function workingHours(o: LinesOptions = {}): LinesField {
  return lines(
    {
      weekday: enumOf(WEEKDAYS, { required: true, example: 'monday' }),
      hour_from: decimal({
        required: true,
        min: 0,
        max: 24,
        description: 'Start, in hours after midnight (8.5 = 08:30).',
        example: '8',
      }),
      hour_to: decimal({
        required: true,
        min: 0,
        max: 24,
        description: 'End, in hours after midnight (after `hour_from`).',
        example: '12',
      }),
    },
    {
      required: true,
      maxItems: 50,
      description: 'Working hours by weekday; a day without a line is not worked.',
      ...o,
    },
  );
}

/** How an asset loses value (ERPNext depreciation method, Odoo method, BC depreciation method). */
export const depreciationMethod = (o: { required?: boolean; description?: string } = {}) =>
  enumOf(['straight_line', 'declining_balance', 'units_of_production', 'none'], {
    filterable: true,
    description:
      'straight_line: equal amounts; declining_balance: a fixed rate of the remaining value (French « dégressif »); none: not depreciated (land).',
    example: 'straight_line',
    ...o,
  });
