import { ApiError } from '@erp/contract';
import type { DocumentLine, DocumentTax, EInvoice, Party, RuleFailure } from '@erp/einvoicing';
import type pg from 'pg';
import type { CompanyRow } from './company';
import { einvoicingLibrary } from './library';

/** The two documents the product issues as e-invoices, and where their terms are. */
const DOCUMENTS = {
  invoices: {
    table: 'invoices',
    typeCode: '380',
    date: 'invoice_date',
    extra: `d.due_date::text, d.customer_reference, d.payment_reference,
      (SELECT so.number FROM sales_orders so WHERE so.tenant_id = $1 AND so.id = d.sales_order_id) AS order_number,
      (SELECT json_build_object('iban', b.iban, 'bic', b.bic) FROM bank_accounts b
        WHERE b.tenant_id = $1 AND b.id = d.bank_account_id) AS bank,
      NULL::json AS preceding`,
  },
  'credit-notes': {
    table: 'credit_notes',
    typeCode: '381',
    date: 'credit_note_date',
    extra: `NULL::date AS due_date, NULL::text AS customer_reference, NULL::text AS payment_reference,
      (SELECT so.number FROM invoices i JOIN sales_orders so ON so.tenant_id = i.tenant_id AND so.id = i.sales_order_id
        WHERE i.tenant_id = $1 AND i.id = d.invoice_id) AS order_number,
      NULL::json AS bank,
      (SELECT json_build_object('number', i.number, 'date', i.invoice_date) FROM invoices i
        WHERE i.tenant_id = $1 AND i.id = d.invoice_id) AS preceding`,
  },
} as const;
export type IssuedDocument = keyof typeof DOCUMENTS;

/** Statuses of documents that were issued (a draft or a cancelled one has no e-invoice). */
const ISSUED = new Set(['emis', 'partiellement_paye', 'paye', 'impute']);

interface DocumentRow {
  number: string;
  status: string;
  date: string;
  due_date: string | null;
  currency: string;
  exchange_rate: string | null;
  notes: string | null;
  customer_reference: string | null;
  payment_reference: string | null;
  lines: (DocumentLine & { product_id?: string | null })[];
  subtotal_cents: string;
  tax_cents: string;
  total_cents: string;
  order_number: string | null;
  bank: { iban: string | null; bic: string | null } | null;
  preceding: { number: string; date: string } | null;
  customer: Record<string, string | null> | null;
  company: CompanyRow | null;
  company_currency: string | null;
  latest_rate: string | null;
  taxes: Record<string, DocumentTax> | null;
  products: Record<string, string | null> | null;
}

function documentSql(kind: IssuedDocument): string {
  const { table, date, extra } = DOCUMENTS[kind];
  const ids = (key: string) =>
    `(SELECT (l->>'${key}')::uuid FROM jsonb_array_elements(d.lines) l WHERE l->>'${key}' IS NOT NULL)`;
  return `SELECT d.number, d.status, d.${date}::text AS date, d.currency, d.exchange_rate::text, d.notes,
      d.lines, d.subtotal_cents, d.tax_cents, d.total_cents, ${extra},
      (SELECT row_to_json(c) FROM customers c WHERE c.tenant_id = $1 AND c.id = d.customer_id) AS customer,
      (SELECT row_to_json(s) FROM company_settings s WHERE s.tenant_id = $1) AS company,
      (SELECT a.company_currency FROM accounting_settings a WHERE a.tenant_id = $1) AS company_currency,
      (SELECT er.rate::text FROM exchange_rates er JOIN currencies cu ON cu.tenant_id = er.tenant_id AND cu.id = er.currency_id
        WHERE er.tenant_id = $1 AND cu.code = d.currency AND er.rate_date <= d.${date}
        ORDER BY er.rate_date DESC LIMIT 1) AS latest_rate,
      (SELECT json_object_agg(t.id, json_build_object('category', t.vat_category, 'code', t.vat_exemption_reason_code,
          'reason', t.vat_exemption_reason))
        FROM taxes t WHERE t.tenant_id = $1 AND t.id IN ${ids('tax_id')}) AS taxes,
      (SELECT json_object_agg(p.id, p.sku) FROM products p WHERE p.tenant_id = $1 AND p.id IN ${ids('product_id')}) AS products
    FROM ${table} d WHERE d.tenant_id = $1 AND d.id = $2`;
}

/** French invoices' mandatory payment mentions (Code de commerce, L441-10), as notes. */
const FRENCH_NOTES = [
  { subject: 'PMD', text: 'Pénalités de retard : trois fois le taux d’intérêt légal.' },
  { subject: 'PMT', text: 'Indemnité forfaitaire pour frais de recouvrement : 40 €.' },
  { subject: 'AAB', text: 'Pas d’escompte pour paiement anticipé.' },
];

/** A party's identifiers from a SIREN, a SIRET or another registration number. */
function registration(value: string | null | undefined): Pick<Party, 'id' | 'legalId'> {
  if (!value) return {};
  const compact = value.replace(/\s+/g, '');
  if (/^\d{14}$/.test(compact))
    return {
      id: { value: compact, scheme: '0009' },
      legalId: { value: compact.slice(0, 9), scheme: '0002' },
    };
  if (/^\d{9}$/.test(compact)) return { legalId: { value: compact, scheme: '0002' } };
  return { legalId: { value: compact } };
}

const present = (value: string | null | undefined) => value?.trim() || undefined;

/** Cents as French text, exactly: 5000000 → `50 000`, 7500050 → `75 000,50`. */
export function frenchEuros(cents: bigint): string {
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const rest = cents % 100n;
  return rest ? `${whole},${rest.toString().padStart(2, '0')}` : whole;
}

function seller(company: CompanyRow): Party {
  const capital =
    company.share_capital_cents !== null
      ? `au capital de ${frenchEuros(BigInt(company.share_capital_cents))} €`
      : undefined;
  const legalInfo = [
    company.legal_form,
    capital,
    company.registry && company.siren ? `${company.registry} ${company.siren}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    name: company.legal_name ?? '',
    tradingName: present(company.trade_name),
    ...(company.siret ? { id: { value: company.siret, scheme: '0009' } } : {}),
    ...(company.siren ? { legalId: { value: company.siren, scheme: '0002' } } : {}),
    vatId: present(company.vat_number),
    legalInfo: legalInfo || undefined,
    email: present(company.email),
    address: {
      line1: present(company.street),
      line2: present(company.street2),
      city: present(company.city),
      postalCode: present(company.postal_code),
      country: company.country_code ?? '',
    },
  };
}

function buyer(customer: Record<string, string | null>): Party {
  return {
    name: customer.name ?? '',
    ...registration(customer.registration_number),
    vatId: present(customer.vat_number),
    email: present(customer.email),
    address: {
      line1: present(customer.street),
      line2: present(customer.street2),
      city: present(customer.city),
      postalCode: present(customer.postal_code),
      subdivision: present(customer.state),
      country: customer.country_code ?? '',
    },
  };
}

/**
 * What the rules need that the settings or the customer lack, said before writing anything:
 * the rule ids the document would fail (BR-06 the seller's name…), so the user knows what to fill.
 */
function missing(model: EInvoice): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const rule = (id: string, text: string) =>
    failures.push({ id, flag: 'fatal', location: '', text });
  if (!model.seller.name)
    rule('BR-06', 'Settings → Company: the legal name (the Seller name, BT-27) is not set.');
  if (!model.seller.address.country)
    rule('BR-09', 'Settings → Company: the country (the Seller country code, BT-40) is not set.');
  const categories = new Set(model.vat.map((v) => v.category));
  if (!model.seller.vatId && [...categories].some((c) => c !== 'O'))
    rule(
      'BR-S-02',
      'Settings → Company: the VAT number (the Seller VAT identifier, BT-31) is not set.',
    );
  if (!model.buyer.address.country)
    rule('BR-11', "The customer's country code (the Buyer country code, BT-55) is not set.");
  if (categories.has('AE') && !model.buyer.vatId && !model.buyer.legalId)
    rule('BR-AE-02', 'A reverse charge needs the customer’s VAT number (BT-48).');
  if (categories.has('K') && !model.buyer.vatId)
    rule('BR-IC-02', 'An intra-community supply needs the customer’s VAT number (BT-48).');
  return failures;
}

/** An issued invoice or credit note as the EN 16931 model (`buildEInvoice`), its parties and references read here. */
export async function issuedDocument(
  client: pg.PoolClient,
  tenantId: string,
  kind: IssuedDocument,
  id: string,
): Promise<EInvoice> {
  const { rows } = await client.query<DocumentRow>(documentSql(kind), [tenantId, id]);
  const doc = rows[0];
  if (!doc) throw new ApiError('introuvable', 'No such record in this tenant.', { id });
  if (!ISSUED.has(doc.status))
    throw new ApiError(
      'transition_invalide',
      `Only an issued document is an e-invoice; this one is ${doc.status}.`,
      { from: doc.status, action: 'einvoice' },
    );
  const company = doc.company;
  const credit = kind === 'credit-notes';
  const { buildEInvoice } = await einvoicingLibrary();
  const model = buildEInvoice({
    typeCode: DOCUMENTS[kind].typeCode,
    number: doc.number,
    issueDate: doc.date,
    dueDate: doc.due_date ?? undefined,
    currency: doc.currency,
    companyCurrency: doc.company_currency ?? 'EUR',
    exchangeRate: doc.exchange_rate ?? doc.latest_rate,
    lines: doc.lines.map((l) => ({
      ...l,
      sku: l.product_id ? doc.products?.[l.product_id] : null,
    })),
    taxes: doc.taxes ?? {},
    seller: seller(company ?? emptyCompany()),
    buyer: buyer(doc.customer ?? {}),
    totals: {
      subtotal_cents: Number(doc.subtotal_cents),
      tax_cents: Number(doc.tax_cents),
      total_cents: Number(doc.total_cents),
    },
    rest: {
      buyerReference: present(doc.customer_reference),
      orderReference: present(doc.order_number),
      precedingInvoice: doc.preceding
        ? { number: doc.preceding.number, issueDate: doc.preceding.date }
        : undefined,
      notes: [
        ...(present(doc.notes) ? [{ subject: 'AAI', text: doc.notes!.trim() }] : []),
        ...(company?.country_code === 'FR' && !credit ? FRENCH_NOTES : []),
      ],
      payment: {
        meansCode: (doc.bank?.iban ?? company?.iban) ? '58' : '30',
        reference: present(doc.payment_reference) ?? doc.number,
        iban: present(doc.bank?.iban) ?? present(company?.iban),
        bic: present(doc.bank?.bic) ?? present(company?.bic),
      },
      paymentTerms: credit
        ? `Credit note for invoice ${doc.preceding?.number ?? ''}`.trim()
        : undefined,
    },
  });
  const failures = missing(model);
  if (failures.length)
    throw new ApiError(
      'facture_electronique_invalide',
      `The e-invoice of ${doc.number} would fail ${failures.map((f) => f.id).join(', ')}: ${failures[0]!.text}`,
      { rules: failures.map(({ id: rule, text }) => ({ id: rule, text })) },
    );
  return model;
}

function emptyCompany(): CompanyRow {
  return {
    legal_name: null,
    trade_name: null,
    legal_form: null,
    share_capital_cents: null,
    registry: null,
    siren: null,
    siret: null,
    vat_number: null,
    street: null,
    street2: null,
    postal_code: null,
    city: null,
    country_code: null,
    iban: null,
    bic: null,
    email: null,
    phone: null,
  };
}
