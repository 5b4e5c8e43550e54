import { accountingBankSeed, bankLineSteps, mainBankAccount } from './accounting-bank';
import { accountingFlowsSeed, accountingFlowWalks, EUR_PER_UNIT } from './accounting-flows';
import {
  DEMO_YEAR,
  type SeedContext,
  type SeedDates,
  type SeededRecord,
  type SeedOverrides,
  type SeedReads,
  type SeedWalks,
} from './context';
import {
  accountId,
  daysBetween,
  endOfMonth,
  findRecord,
  journalOf,
  monthsAfter,
  periodOf,
  recordsOf,
  recordWith,
  roundCents,
} from './records';

type Line = Record<string, unknown>;

/** The demo company's year: fiscal year 2026, its months, its documents. */
const YEAR = DEMO_YEAR;

const CURRENCIES: [code: string, name: string, symbol: string, minorUnits: number][] = [
  ['EUR', 'Euro', '€', 2],
  ['CAD', 'Dollar canadien', '$', 2],
  ['USD', 'Dollar américain', '$', 2],
  ['NOK', 'Couronne norvégienne', 'kr', 2],
  ['GBP', 'Livre sterling', '£', 2],
  ['CZK', 'Couronne tchèque', 'Kč', 2],
  ['CHF', 'Franc suisse', 'CHF', 2],
  ['DKK', 'Couronne danoise', 'kr', 2],
  ['SEK', 'Couronne suédoise', 'kr', 2],
  ['PLN', 'Złoty polonais', 'zł', 2],
  ['JPY', 'Yen japonais', '¥', 0],
  ['CNY', 'Yuan renminbi', '¥', 2],
];

const PAYMENT_TERMS: [code: string, name: string, days: number, endOfMonth: boolean][] = [
  ['NET30', '30 jours net', 30, false],
  ['NET45FM', '45 jours fin de mois', 45, true],
  ['COMPTANT', 'Comptant à réception', 0, false],
  ['NET60', '60 jours net', 60, false],
  ['NET30-ESC2', '30 jours net, escompte 2 % à 10 jours', 30, false],
  ['NET30FM', '30 jours fin de mois', 30, true],
  ['NET15', '15 jours net', 15, false],
  ['NET45', '45 jours net', 45, false],
  ['NET10', '10 jours net', 10, false],
  ['NET7', '7 jours net', 7, false],
  ['NET90-EXP', '90 jours (export hors UE)', 90, false],
  ['ACOMPTE30', '30 % à la commande, solde à 30 jours', 30, false],
];

/**
 * The demo company's accounts beyond the French chart installBooks makes (411, 401, 512, 707,
 * 706, 607, 44571, 44566, 37, 408, 603, 658, 666, 766, 101): fixed assets, bank fees, a loan,
 * payroll. The first six are those a smaller seed still has; the generic walk archives the 5th
 * and the 10th (n = 4, 9), so those are accounts nothing posts to.
 */
const CHART: [code: string, name: string, type: string, subType: string, reconcilable: boolean][] =
  [
    ['218300', 'Matériel de bureau et matériel informatique', 'asset', 'fixed_asset', false],
    [
      '281830',
      'Amortissements du matériel de bureau et informatique',
      'asset',
      'depreciation',
      false,
    ],
    [
      '681120',
      'Dotations aux amortissements des immobilisations corporelles',
      'expense',
      'other',
      false,
    ],
    ['627000', 'Services bancaires et assimilés', 'expense', 'other', false],
    ['625100', 'Voyages et déplacements', 'expense', 'other', false],
    ['164000', 'Emprunts auprès des établissements de crédit', 'liability', 'other', false],
    ['604000', 'Achats d’études et prestations de services', 'expense', 'other', false],
    ['613200', 'Locations immobilières', 'expense', 'other', false],
    ['641000', 'Rémunérations du personnel', 'expense', 'other', false],
    ['606100', 'Fournitures non stockables (eau, énergie)', 'expense', 'other', false],
    ['421000', 'Personnel — rémunérations dues', 'liability', 'other', false],
    ['355000', 'Stocks de produits finis', 'asset', 'other', false],
  ];

const COST_CENTERS: [code: string, name: string][] = [
  ['DG', 'Direction générale'],
  ['VTE-FR', 'Ventes France'],
  ['VTE-EXP', 'Ventes export'],
  ['ACH', 'Achats'],
  ['PROD', 'Production'],
  ['LOG', 'Logistique'],
  ['RD', 'Recherche et développement'],
  ['MKT', 'Marketing'],
  ['DSI', 'Informatique'],
  ['RH', 'Ressources humaines'],
  ['SAV', 'Service après-vente'],
  ['FIN', 'Finance et comptabilité'],
];

const TAXES: [code: string, name: string, scope: string, kind: string, account: string][] = [
  ['TVA-C20', 'TVA collectée 20 %', 'sales', 'vat', '445710'],
  ['TVA-D20', 'TVA déductible 20 %', 'purchases', 'vat', '445660'],
  ['TVA-C10', 'TVA collectée 10 %', 'sales', 'vat', '445710'],
  ['TVA-D10', 'TVA déductible 10 %', 'purchases', 'vat', '445660'],
  ['TVA-C55', 'TVA collectée 5,5 %', 'sales', 'vat', '445710'],
  ['TVA-D55', 'TVA déductible 5,5 %', 'purchases', 'vat', '445660'],
  ['TVA-C21', 'TVA collectée 2,1 %', 'sales', 'vat', '445710'],
  ['TVA-DIMMO', 'TVA déductible sur immobilisations 20 %', 'purchases', 'vat', '445660'],
  ['TVA-AUTO', 'TVA autoliquidée sur acquisitions intracommunautaires', 'both', 'vat', '445710'],
  ['TVA-EXO', 'Exonération export (art. 262 I du CGI)', 'sales', 'vat', '445710'],
  [
    'TVA-IC',
    'Livraison intracommunautaire exonérée (art. 262 ter I du CGI)',
    'sales',
    'vat',
    '445710',
  ],
  [
    'RAS',
    'Retenue à la source sur prestations de non-résidents',
    'purchases',
    'withholding',
    '445660',
  ],
];

/**
 * What each tax says on an e-invoice (SPEC §20): its EN 16931 category and, when it charges no
 * VAT, why. The others are S (standard rate).
 */
const VAT_CATEGORIES: Record<string, Record<string, string>> = {
  'TVA-EXO': {
    vat_category: 'G',
    vat_exemption_reason_code: 'VATEX-EU-G',
    vat_exemption_reason: 'Exonération de TVA, article 262 I du CGI (exportation)',
  },
  'TVA-IC': {
    vat_category: 'K',
    vat_exemption_reason_code: 'VATEX-EU-IC',
    vat_exemption_reason:
      'Exonération de TVA, article 262 ter I du CGI (livraison intracommunautaire)',
  },
};

/** Rates of the taxes above; the last is the normal rate before 2014 (19,6 %), now replaced. */
const TAX_RATES: [tax: string, name: string, rate: string, from: string, until: string | null][] = [
  ['TVA-C20', 'Taux normal 20 %', '20', '2014-01-01', null],
  ['TVA-D20', 'Taux normal 20 %', '20', '2014-01-01', null],
  ['TVA-C10', 'Taux intermédiaire 10 %', '10', '2014-01-01', null],
  ['TVA-D10', 'Taux intermédiaire 10 %', '10', '2014-01-01', null],
  ['TVA-C55', 'Taux réduit 5,5 %', '5.5', '2012-01-01', null],
  ['TVA-D55', 'Taux réduit 5,5 %', '5.5', '2012-01-01', null],
  ['TVA-C21', 'Taux particulier 2,1 %', '2.1', '1989-01-01', null],
  ['TVA-DIMMO', 'Taux normal 20 %', '20', '2014-01-01', null],
  ['TVA-AUTO', 'Taux normal 20 %', '20', '2014-01-01', null],
  ['TVA-EXO', 'Exonéré', '0', '1993-01-01', null],
  ['TVA-IC', 'Exonéré', '0', '1993-01-01', null],
  ['TVA-C20', 'Ancien taux normal 19,6 %', '19.6', '2000-04-01', '2013-12-31'],
];

const FISCAL_POSITIONS: [
  name: string,
  zone: string,
  country: string | null,
  vatRequired: boolean,
  mention: string | null,
  mappings: [from: string, to: string | null][],
][] = [
  ['France', 'domestic', 'FR', false, null, []],
  [
    'Union européenne — B2B (autoliquidation)',
    'eu',
    null,
    true,
    'Autoliquidation — article 196 de la directive 2006/112/CE',
    [
      ['TVA-C20', 'TVA-IC'],
      ['TVA-C10', 'TVA-IC'],
      ['TVA-D20', 'TVA-AUTO'],
    ],
  ],
  [
    'Export hors Union européenne',
    'non_eu',
    null,
    false,
    'Exonération de TVA, article 262 I du CGI',
    [
      ['TVA-C20', 'TVA-EXO'],
      ['TVA-C10', 'TVA-EXO'],
      ['TVA-C55', 'TVA-EXO'],
    ],
  ],
  ['Union européenne — particuliers', 'eu', null, false, null, []],
  ['Monaco', 'domestic', 'MC', false, null, []],
  [
    'Belgique — B2B',
    'eu',
    'BE',
    true,
    'Autoliquidation — article 196 de la directive 2006/112/CE',
    [['TVA-C20', 'TVA-IC']],
  ],
  [
    'Allemagne — B2B',
    'eu',
    'DE',
    true,
    'Steuerschuldnerschaft des Leistungsempfängers',
    [['TVA-C20', 'TVA-IC']],
  ],
  ['Espagne — B2B', 'eu', 'ES', true, 'Inversión del sujeto pasivo', [['TVA-C20', 'TVA-IC']]],
  ['Italie — B2B', 'eu', 'IT', true, 'Inversione contabile', [['TVA-C20', 'TVA-IC']]],
  ['Pays-Bas — B2B', 'eu', 'NL', true, 'BTW verlegd', [['TVA-C20', 'TVA-IC']]],
  [
    'Suisse',
    'non_eu',
    'CH',
    false,
    'Exonération de TVA, article 262 I du CGI',
    [['TVA-C20', 'TVA-EXO']],
  ],
  [
    'Royaume-Uni',
    'non_eu',
    'GB',
    false,
    'Exonération de TVA, article 262 I du CGI',
    [['TVA-C20', 'TVA-EXO']],
  ],
];

/**
 * Journals beyond installBooks' VTE, ACH, BQ and OD (never a second journal of a code); the
 * generic walk archives the 5th and the 10th.
 */
const JOURNALS: [code: string, name: string, type: string, account: string | null][] = [
  ['VTEX', 'Ventes export', 'sales', '707000'],
  ['HA-IMMO', 'Achats d’immobilisations', 'purchases', '218300'],
  ['BQ1', 'Banque BNP Paribas', 'bank', '512000'],
  ['AN', 'À-nouveaux', 'miscellaneous', null],
  ['BQ3', 'Banque Qonto', 'bank', '512000'],
  ['CAI', 'Caisse', 'cash', '530000'],
  ['SAL', 'Salaires', 'miscellaneous', null],
  ['BQ2', 'Banque Crédit Agricole', 'bank', '512000'],
  ['IMMO', 'Amortissements', 'miscellaneous', '681120'],
  ['EXT', 'Extournes', 'miscellaneous', null],
  ['VTES', 'Ventes de services', 'sales', '706000'],
  ['BQUSD', 'Banque en dollars', 'bank', '512000'],
];

const BANKS: [bank: string, bic: string][] = [
  ['BNP Paribas', 'BNPAFRPPXXX'],
  ['Qonto', 'QNTOFRP1XXX'],
  ['Crédit Agricole Centre-Est', 'AGRIFRPP878'],
  ['Société Générale', 'SOGEFRPPXXX'],
  ['LCL', 'CRLYFRPPXXX'],
  ['CIC', 'CMCIFRPPXXX'],
  ['La Banque Postale', 'PSSTFRPPXXX'],
  ['Crédit Mutuel', 'CMCIFR2AXXX'],
  ['Banque Populaire Auvergne Rhône Alpes', 'CCBPFRPPLYO'],
  ['Caisse d’Épargne Rhône Alpes', 'CEPAFRPP382'],
  ['Shine', 'SHNEFRP1XXX'],
  ['HSBC Continental Europe', 'CCFRFRPPXXX'],
];

const RECURRING: [name: string, expense: string, frequency: string, net: number, vat: boolean][] = [
  ['Loyer bureaux Paris', '613200', 'monthly', 480_000, true],
  ['Abonnement logiciel de paie', '607000', 'monthly', 18_900, true],
  ['Loyer entrepôt Lyon', '613200', 'quarterly', 1_260_000, true],
  ['Assurance multirisque', '607000', 'yearly', 342_000, false],
  ['Location copieurs', '613200', 'quarterly', 61_500, true],
  ['Honoraires expert-comptable', '607000', 'monthly', 95_000, true],
  ['Dotation aux amortissements mensuelle', '681120', 'monthly', 212_500, false],
  ['Nettoyage des locaux', '607000', 'monthly', 72_000, true],
  ['Télécom et internet', '607000', 'monthly', 24_990, true],
  ['Maintenance informatique', '607000', 'quarterly', 150_000, true],
  ['Parking salariés', '613200', 'monthly', 36_000, true],
  ['Abonnement presse professionnelle', '607000', 'yearly', 58_000, true],
];

const MONTHS = [
  'Janvier',
  'Février',
  'Mars',
  'Avril',
  'Mai',
  'Juin',
  'Juillet',
  'Août',
  'Septembre',
  'Octobre',
  'Novembre',
  'Décembre',
];

const at = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
const cents = (value: unknown) => Number(value ?? 0);
const day = (value: unknown) => String(value);

/** The fiscal year of the demo company's documents. */
function currentYear(ctx: SeedContext): SeededRecord {
  return (
    recordWith(ctx, 'fiscal_year', 'start_date', `${YEAR}-01-01`) ?? ctx.pick('fiscal_year', 0)
  );
}

function taxId(ctx: SeedContext, code: string): string | undefined {
  return recordWith(ctx, 'tax', 'code', code)?.id;
}

/** Invoices that were issued and not cancelled (posted). */
const issued = (i: SeededRecord) =>
  ['emis', 'partiellement_paye', 'paye'].includes(String(i.status));
/** Supplier invoices approved and not cancelled (posted). */
const approved = (i: SeededRecord) =>
  ['approuve', 'partiellement_paye', 'paye'].includes(String(i.status));

/** Net and tax of a document's lines per tax rate, rounded per line as the engine does. */
function byRate(lines: unknown): Map<string, { base: number; tax: number }> {
  const rates = new Map<string, { base: number; tax: number }>();
  for (const line of (lines as Line[]) ?? []) {
    const rate = String(Number(line.tax_rate ?? 0));
    const net = roundCents(Number(line.quantity) * Number(line.unit_price_cents));
    const sum = rates.get(rate) ?? { base: 0, tax: 0 };
    sum.base += net;
    sum.tax += roundCents((net * Number(rate)) / 100);
    rates.set(rate, sum);
  }
  return rates;
}

function ledgerLine(account: string, debit: number, credit: number, extra: Line = {}): Line {
  return { account_id: account, debit_cents: debit, credit_cents: credit, ...extra };
}

/**
 * Accounting records that agree with each other: invoices bill their orders, payments settle
 * issued invoices for their total, bank transactions carry those payments, statements add them
 * up, journal entries balance, periods and returns fall in their fiscal year, rates belong to
 * their tax.
 */
export const accountingSeed: SeedOverrides = {
  ...accountingFlowsSeed,
  ...accountingBankSeed,
  currency(ctx) {
    const [code, name, symbol, minorUnits] = at(CURRENCIES, ctx.n);
    return { code, name, symbol, minor_units: minorUnits };
  },
  exchange_rate(ctx) {
    const currency = findRecord(ctx, 'currency', (c) => c.code !== 'EUR');
    const base = EUR_PER_UNIT[String(currency.code)] ?? 1;
    const drift = 1 + ctx.faker.number.float({ min: -0.01, max: 0.01 });
    return {
      currency_id: currency.id,
      rate_date: ctx.daysAfter(`${YEAR}-03-02`, Math.floor(ctx.n / 2)),
      rate: (base * drift).toFixed(6),
      source: ctx.n % 5 === 4 ? 'bank' : 'ecb',
    };
  },
  payment_term(ctx) {
    const [code, name, days, eom] = at(PAYMENT_TERMS, ctx.n);
    const discount = code === 'NET30-ESC2';
    return {
      code,
      name,
      net_days: days,
      end_of_month: eom,
      discount_percent: discount ? '2' : null,
      discount_days: discount ? 10 : null,
    };
  },
  account(ctx) {
    const [code, name, type, subType, reconcilable] = at(CHART, ctx.n);
    return {
      code,
      name,
      account_type: type,
      sub_type: subType,
      parent_id: null,
      is_group: false,
      reconcilable,
      currency: null,
    };
  },
  fiscal_year(ctx) {
    // The years before the demo's: installBooks made the demo's year and the next.
    const year = YEAR - 1 - ctx.n;
    return { name: `FY ${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` };
  },
  accounting_period(ctx) {
    // The months of last year (installBooks made this year's and next year's), in order.
    const year =
      recordWith(ctx, 'fiscal_year', 'start_date', `${YEAR - 1}-01-01`) ?? currentYear(ctx);
    const start = monthsAfter(day(year.start_date), ctx.n);
    return {
      fiscal_year_id: year.id,
      name: `${MONTHS[Number(start.slice(5, 7)) - 1]} ${start.slice(0, 4)}`,
      period_type: 'month',
      start_date: start,
      end_date: endOfMonth(start),
    };
  },
  cost_center(ctx) {
    const [code, name] = at(COST_CENTERS, ctx.n);
    return { code, name, parent_id: null };
  },
  tax(ctx) {
    const [code, name, scope, kind, account] = at(TAXES, ctx.n);
    return {
      code,
      name,
      scope,
      tax_kind: kind,
      account_id: accountId(ctx, account),
      ...(kind === 'vat' ? (VAT_CATEGORIES[code] ?? { vat_category: 'S' }) : {}),
    };
  },
  tax_rate(ctx) {
    const [tax, name, rate, from, until] = at(TAX_RATES, ctx.n);
    return {
      tax_id: (recordWith(ctx, 'tax', 'code', tax) ?? ctx.pick('tax')).id,
      name,
      rate,
      valid_from: from,
      valid_until: until,
    };
  },
  fiscal_position(ctx) {
    const [name, zone, country, vatRequired, mention, mappings] = at(FISCAL_POSITIONS, ctx.n);
    return {
      name,
      zone,
      country_code: country,
      vat_required: vatRequired,
      auto_apply: true,
      legal_mention: mention,
      tax_mappings: mappings.flatMap(([from, to]) => {
        const source = taxId(ctx, from);
        return source
          ? [{ source_tax_id: source, destination_tax_id: to ? (taxId(ctx, to) ?? null) : null }]
          : [];
      }),
      account_mappings: [],
    };
  },
  journal(ctx) {
    const [code, name, type, account] = at(JOURNALS, ctx.n);
    const cashOrBank = type === 'bank' || type === 'cash';
    return {
      code,
      name,
      journal_type: type,
      default_account_id: account ? accountId(ctx, account) : null,
      suspense_account_id: cashOrBank ? accountId(ctx, '512000') : null,
      sequence_prefix: code,
      currency: null,
    };
  },
  bank_account(ctx) {
    const [bank, bic] = at(BANKS, ctx.n);
    const usd = ctx.n === 3;
    return {
      name: `${bank} — ${usd ? 'compte en dollars' : ctx.n === 0 ? 'compte courant' : 'compte secondaire'}`,
      bank_name: bank,
      bic,
      account_holder: 'Demo SARL',
      currency: usd ? 'USD' : 'EUR',
      journal_id: journalOf(ctx, 'bank', ctx.n).id,
      account_id: accountId(ctx, '512000'),
      is_default: ctx.n === 0,
      opened_on: ctx.daysAfter('2015-09-01', ctx.n * 190),
    };
  },
  payment_order(ctx) {
    // Two or three approved bills, paid together by SEPA transfer from the main account.
    const bills = [0, 1, 2]
      .slice(0, 2 + (ctx.n % 2))
      .map((i) =>
        findRecord(ctx, 'supplier_invoice', (b) => b.status === 'approuve', ctx.n * 3 + i),
      );
    const unique = [...new Map(bills.map((b) => [b.id, b])).values()];
    const lines = unique.map((bill) => ({
      supplier_id: bill.supplier_id,
      supplier_invoice_id: bill.id,
      iban:
        (recordWith(ctx, 'supplier', 'id', bill.supplier_id)?.iban as string | undefined) ??
        ctx.faker.finance.iban({ formatted: false, countryCode: 'FR' }),
      amount_cents: Math.max(1, cents(bill.total_cents)),
      remittance_information: bill.supplier_invoice_number,
    }));
    const latestDue = unique
      .map((b) => day(b.due_date))
      .sort()
      .at(-1)!;
    return {
      bank_account_id: mainBankAccount(ctx).id,
      payment_type: 'sepa_credit_transfer',
      execution_date: ctx.daysAfter(latestDue, -3),
      currency: 'EUR',
      total_amount_cents: lines.reduce((sum, l) => sum + l.amount_cents, 0),
      file_reference: `PAIN001-${YEAR}-${String(ctx.n + 1).padStart(4, '0')}`,
      lines,
    };
  },
  journal_entry(ctx) {
    // What no document posts: the opening balances, bank fees, depreciation, a loan, a stock
    // count, payroll, cash. Never a document's own posting again (the posting engine made those).
    const month = (m: number) => `${YEAR}-${String(m).padStart(2, '0')}-01`;
    const miscellaneous = journalOf(ctx, 'miscellaneous');
    const bank = accountId(ctx, '512000');
    const entry = (date: string, journal: SeededRecord, lines: Line[], rest: Line) => ({
      invoice_id: null,
      supplier_invoice_id: null,
      payment_id: null,
      reversed_entry_id: null,
      source_type: null,
      source_id: null,
      journal_id: journal.id,
      entry_date: date,
      accounting_period_id: periodOf(ctx, date),
      entry_type: 'standard',
      currency: 'EUR',
      lines: lines.map((l) => ({ ...l, label: rest.description })),
      reference: null,
      ...rest,
    });
    const two = (debit: string, credit: string, amount: number) => [
      ledgerLine(accountId(ctx, debit), amount, 0),
      ledgerLine(accountId(ctx, credit), 0, amount),
    ];
    switch (ctx.n % 6) {
      case 0: {
        if (ctx.n > 0)
          return entry(endOfMonth(month(6)), miscellaneous, two('603700', '370000', 184_250), {
            description: 'Inventaire de mi-année — variation des stocks de marchandises',
          });
        const opening = recordWith(ctx, 'journal', 'code', 'AN');
        return entry(
          month(1),
          opening?.status === 'actif' ? opening : miscellaneous,
          [
            ledgerLine(bank, 2_450_000, 0),
            ledgerLine(accountId(ctx, '370000'), 1_280_000, 0),
            ledgerLine(accountId(ctx, '101000'), 0, 3_730_000),
          ],
          {
            entry_type: 'opening',
            description: `Reprise des soldes d’ouverture ${YEAR}`,
            reference: `AN-${YEAR}`,
          },
        );
      }
      case 1: {
        const date = endOfMonth(month(ctx.n < 6 ? 1 : 7));
        return entry(date, journalOf(ctx, 'bank'), two('627000', '512000', 3_480 + ctx.n * 10), {
          description: `Frais de tenue de compte — ${MONTHS[Number(date.slice(5, 7)) - 1]} ${YEAR}`,
        });
      }
      case 2: {
        const date = endOfMonth(month(ctx.n < 6 ? 3 : 9));
        return entry(date, miscellaneous, two('681120', '281830', 212_500), {
          entry_type: 'depreciation',
          description: `Dotation aux amortissements — trimestre clos le ${date}`,
        });
      }
      case 3:
        // The loan drawn in February; its first instalment, entered then cancelled (reversed).
        return ctx.n < 6
          ? entry(`${YEAR}-02-10`, journalOf(ctx, 'bank'), two('512000', '164000', 5_000_000), {
              description: 'Déblocage de l’emprunt BNP Paribas',
            })
          : entry(`${YEAR}-05-10`, journalOf(ctx, 'bank'), two('164000', '512000', 143_200), {
              description: 'Échéance d’emprunt saisie en double',
            });
      case 4:
        return entry(
          endOfMonth(month(ctx.n < 6 ? 2 : 4)),
          miscellaneous,
          two('641000', '421000', 1_845_000),
          {
            description: 'Salaires du mois',
          },
        );
      default:
        return entry(
          `${YEAR}-0${ctx.n < 6 ? 6 : 8}-14`,
          journalOf(ctx, 'bank'),
          two('530000', '512000', 30_000),
          {
            description: 'Retrait d’espèces pour la caisse',
          },
        );
    }
  },
  recurring_entry(ctx) {
    const [name, expense, frequency, net, vat] = at(RECURRING, ctx.n);
    const tax = vat ? net / 5 : 0;
    const start = `${YEAR}-${String(1 + (ctx.n % 3)).padStart(2, '0')}-01`;
    const step =
      { weekly: 0, monthly: 1, quarterly: 3, half_yearly: 6, yearly: 12 }[frequency] ?? 1;
    const label = name;
    const depreciation = expense === '681120';
    const lines = depreciation
      ? [
          ledgerLine(accountId(ctx, expense), net, 0, { label }),
          ledgerLine(accountId(ctx, '281830'), 0, net, { label }),
        ]
      : [
          ledgerLine(accountId(ctx, expense), net, 0, {
            label,
            cost_center_id: ctx.pick('cost_center').id,
          }),
          ...(tax ? [ledgerLine(accountId(ctx, '445660'), tax, 0, { label })] : []),
          ledgerLine(accountId(ctx, '401000'), 0, net + tax, {
            label,
            supplier_id: ctx.pick('supplier').id,
          }),
        ];
    return {
      name,
      journal_id: journalOf(ctx, depreciation ? 'miscellaneous' : 'purchases').id,
      frequency,
      start_date: start,
      end_date: ctx.n % 3 === 2 ? `${YEAR + 2}-12-31` : null,
      next_run_date: monthsAfter(start, step * 3),
      auto_post: ctx.n % 4 !== 1,
      currency: 'EUR',
      lines,
    };
  },
  budget(ctx) {
    const year = currentYear(ctx);
    const center = ctx.pick('cost_center');
    const periods = recordsOf(ctx, 'accounting_period')
      .filter((p) => p.fiscal_year_id === year.id)
      .slice(0, 3);
    const accounts = ['607000', '613200'];
    const lines = accounts.flatMap((code) =>
      (periods.length ? periods : [undefined]).map((period) => ({
        account_id: accountId(ctx, code),
        accounting_period_id: period?.id ?? null,
        amount_cents: ctx.faker.number.int({ min: 20, max: 400 }) * 10_000,
        label: period ? `${code} — ${period.name}` : code,
      })),
    );
    return {
      name: `Budget ${String(year.name).replace(/\D+/g, '')} — ${center.name}`,
      fiscal_year_id: year.id,
      cost_center_id: center.id,
      project_id: null,
      action_if_exceeded: at(['warn', 'stop', 'ignore'], ctx.n),
      currency: 'EUR',
      lines,
    };
  },
  dunning_level(ctx) {
    const level = (ctx.n % 4) + 1;
    const [segment, label] = at(
      [
        ['PRO', 'professionnels'],
        ['PART', 'particuliers'],
        ['EXP', 'export'],
      ] as const,
      Math.floor(ctx.n / 4),
    );
    const names = ['Rappel courtois', 'Deuxième relance', 'Mise en demeure', 'Pré-contentieux'];
    const business = segment !== 'PART';
    return {
      code: `${segment}-R${level}`,
      name: `${names[level - 1]} (${label})`,
      level,
      days_after_due: [7, 15, 30, 45][level - 1],
      // France: the 40 € recovery indemnity applies between businesses only.
      fee_cents: business && level >= 2 ? 4000 : 0,
      interest_rate: business ? '12.15' : '8.16',
      stops_deliveries: level >= 3,
      letter_text: [
        'Sauf erreur de notre part, la facture ci-dessous reste impayée à ce jour. Nous vous remercions de procéder à son règlement.',
        'Malgré notre précédent rappel, nous restons dans l’attente de votre règlement. Merci de le régulariser sous huit jours.',
        'Nous vous mettons en demeure de régler les sommes dues sous quinze jours, faute de quoi nous engagerons une procédure de recouvrement.',
        'Votre dossier sera transmis à notre service contentieux si le règlement ne nous parvient pas sous huit jours.',
      ][level - 1],
    };
  },
  payment_reminder(ctx) {
    // A reminder asks for what an invoice still owes once allocations are made.
    const invoice = findRecord(ctx, 'invoice', (i) =>
      ['emis', 'partiellement_paye'].includes(String(i.status)),
    );
    const level = findRecord(ctx, 'dunning_level', (l) => l.level === (ctx.n % 3) + 1, 0);
    const reminderDate = ctx.daysAfter(day(invoice.due_date), Number(level.days_after_due ?? 7));
    const due = cents(invoice.amount_due_cents ?? invoice.total_cents);
    const overdue = daysBetween(day(invoice.due_date), reminderDate);
    return {
      customer_id: invoice.customer_id,
      dunning_level_id: level.id,
      reminder_date: reminderDate,
      currency: invoice.currency,
      amount_due_cents: due,
      fee_cents: cents(level.fee_cents),
      interest_cents: roundCents((due * Number(level.interest_rate ?? 0) * overdue) / 36_500),
      lines: [
        {
          invoice_id: invoice.id,
          due_date: invoice.due_date,
          amount_due_cents: due,
          days_overdue: overdue,
        },
      ],
    };
  },
  tax_return(ctx) {
    // The monthly CA3 of the current year: VAT on the month's issued invoices and approved bills.
    const year = currentYear(ctx);
    const start = monthsAfter(day(year.start_date), ctx.n % 12);
    const end = endOfMonth(start);
    const inMonth = (d: unknown) => day(d) >= start && day(d) <= end;
    const sales = new Map<string, { base: number; tax: number }>();
    for (const invoice of recordsOf(ctx, 'invoice').filter(
      (i) => issued(i) && inMonth(i.invoice_date),
    ))
      for (const [rate, sum] of byRate(invoice.lines)) {
        const total = sales.get(rate) ?? { base: 0, tax: 0 };
        sales.set(rate, { base: total.base + sum.base, tax: total.tax + sum.tax });
      }
    const bills = recordsOf(ctx, 'supplier_invoice').filter(
      (b) => approved(b) && inMonth(b.invoice_date),
    );
    const purchases = {
      base: bills.reduce((s, b) => s + cents(b.subtotal_cents), 0),
      tax: bills.reduce((s, b) => s + cents(b.tax_cents), 0),
    };
    const boxes: [box: string, rate: string, label: string, tax: string][] = [
      ['08', '20', 'Opérations imposables au taux normal 20 %', 'TVA-C20'],
      ['9B', '10', 'Opérations imposables au taux de 10 %', 'TVA-C10'],
      ['09', '5.5', 'Opérations imposables au taux de 5,5 %', 'TVA-C55'],
    ];
    const lines = boxes
      .filter(([box, rate]) => box === '08' || sales.has(rate))
      .map(([box, rate, label, tax]) => ({
        box_code: box,
        label,
        tax_id: taxId(ctx, tax) ?? null,
        base_amount_cents: sales.get(rate)?.base ?? 0,
        tax_amount_cents: sales.get(rate)?.tax ?? 0,
      }));
    lines.push({
      box_code: '20',
      label: 'TVA déductible — autres biens et services',
      tax_id: taxId(ctx, 'TVA-D20') ?? null,
      base_amount_cents: purchases.base,
      tax_amount_cents: purchases.tax,
    });
    const output = lines
      .filter((l) => l.box_code !== '20')
      .reduce((s, l) => s + l.tax_amount_cents, 0);
    return {
      return_type: 'vat',
      frequency: 'monthly',
      fiscal_year_id: year.id,
      accounting_period_id: periodOf(ctx, start),
      start_date: start,
      end_date: end,
      filing_deadline: ctx.daysAfter(end, 24),
      currency: 'EUR',
      output_tax_cents: output,
      input_tax_cents: purchases.tax,
      net_due_cents: output - purchases.tax,
      filing_reference: null,
      payment_id: null,
      lines,
    };
  },
};

/** Overrides that read records their resource does not refer to: seeded after those. */
export const accountingSeedReads: SeedReads = {
  // A statement's balances add up the payments and bank entries its lines will carry.
  bank_statement: ['payment', 'journal_entry'],
  // A payment pays what the document's notes leave due.
  payment: ['credit_note', 'debit_note'],
  // A reminder asks for what allocations leave due.
  payment_reminder: ['payment_allocation'],
};

/** The financial documents' walks: most posted (see accountingFlowWalks). */
export const accountingSeedWalks: SeedWalks = {
  ...accountingFlowWalks,
  bank_transaction: bankLineSteps,
};

/** Financial documents are entered in the order of their dates. */
export const accountingSeedDates: SeedDates = {
  invoice: 'invoice_date',
  credit_note: 'credit_note_date',
  supplier_invoice: 'invoice_date',
  debit_note: 'debit_note_date',
  payment: 'paid_on',
  journal_entry: 'entry_date',
};
