import { z } from '@hono/zod-openapi';

/** Luhn's check (SIREN, SIRET): the digits' weighted sum is a multiple of 10. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 13616's check of an IBAN: moved and read as a number, it is 1 modulo 97. */
export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const moved = compact.slice(4) + compact.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    rest = Number(`${rest}${value}`) % 97;
  }
  return rest === 1;
}

/** A French VAT number's key: FR, two digits (12 + 3 × (SIREN mod 97)) mod 97, the SIREN. */
export function frenchVatNumber(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, '0')}${siren}`;
}

const Siren = z
  .string()
  .regex(/^\d{9}$/, 'nine digits')
  .refine(luhnValid, 'not a SIREN (its Luhn check fails)')
  .openapi({ example: '812345676', description: 'SIREN, the company’s nine-digit number.' });

const Siret = z
  .string()
  .regex(/^\d{14}$/, 'fourteen digits')
  .refine(luhnValid, 'not a SIRET (its Luhn check fails)')
  .openapi({
    example: '81234567600017',
    description: 'SIRET of the establishment that invoices: its SIREN and five digits.',
  });

const VatNumber = z
  .string()
  .regex(/^[A-Z]{2}[0-9A-Z+*.]{2,13}$/, 'a country code and up to 13 characters, no spaces')
  .openapi({ example: 'FR19812345676', description: 'Intra-community VAT number.' });

const Iban = z
  .string()
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .refine(ibanValid, 'not an IBAN (its check digits fail)')
  .openapi({ example: 'FR7630006000011234567890189', description: 'IBAN, printed for payments.' });

const Bic = z
  .string()
  .regex(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'a BIC of 8 or 11 characters')
  .openapi({ example: 'AGRIFRPPXXX' });

const Country = z
  .string()
  .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals')
  .openapi({ example: 'FR' });

const text = (max: number, example: string, description?: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .openapi({ example, ...(description ? { description } : {}) });

const fields = {
  legal_name: text(200, 'Atelier Durand SARL', 'The registered name: the seller of every invoice.'),
  trade_name: text(200, 'Atelier Durand', 'The name the company trades under, if another.'),
  legal_form: text(100, 'SARL', 'SARL, SAS, SA, EURL, EI…'),
  share_capital_cents: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .openapi({ example: 5000000, description: 'Share capital in cents of the company currency.' }),
  registry: text(100, 'RCS Lyon', 'Where it is registered (RCS and city, RM…).'),
  siren: Siren,
  siret: Siret,
  vat_number: VatNumber,
  street: text(200, '14 rue de la République'),
  street2: text(200, 'Bâtiment B'),
  postal_code: text(20, '69002'),
  city: text(100, 'Lyon'),
  country_code: Country,
  iban: Iban,
  bic: Bic,
  email: z.email().max(254).openapi({ example: 'factures@atelier-durand.fr' }),
  phone: text(50, '+33 4 78 00 00 00'),
};

type Fields = typeof fields;
const nullable = Object.fromEntries(
  Object.entries(fields).map(([name, schema]) => [name, schema.nullable()]),
) as { [K in keyof Fields]: z.ZodNullable<Fields[K]> };

/**
 * A believable French SARL whose identifiers check (Luhn, the VAT key, the IBAN's): the demo
 * tenant's company, the document's example, and what tests and benchmarks set.
 */
export const EXAMPLE_COMPANY = {
  legal_name: 'Demo SARL',
  trade_name: 'Demo Équipements',
  legal_form: 'SARL',
  share_capital_cents: 5_000_000,
  registry: 'RCS Lyon',
  siren: '812345676',
  siret: '81234567600017',
  vat_number: 'FR19812345676',
  street: '14 rue de la République',
  street2: null,
  postal_code: '69002',
  city: 'Lyon',
  country_code: 'FR',
  iban: 'FR7630006000011234567890189',
  bic: 'AGRIFRPPXXX',
  email: 'factures@demo.test',
  phone: '+33 4 78 00 00 00',
};

/** Settings → Company: the seller of every invoice (SPEC §20). */
export const CompanySettingsSchema = z.object(nullable).openapi('CompanySettings', {
  description:
    'The company that issues the invoices: legal name, SIREN, SIRET, VAT number, address, IBAN and BIC, contact e-mail. Every field is null until set.',
});

/** What a PUT may send: each field a value or null (cleared); those left out stay. */
export const UpdateCompanySettingsBodySchema = z
  .strictObject(nullable)
  .partial()
  .superRefine((body, ctx) => {
    if (body.siren && body.siret && !body.siret.startsWith(body.siren))
      ctx.addIssue({ code: 'custom', path: ['siret'], message: 'a SIRET starts with its SIREN' });
    if (
      body.siren &&
      body.vat_number?.startsWith('FR') &&
      body.vat_number !== frenchVatNumber(body.siren)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['vat_number'],
        message: `the French VAT number of SIREN ${body.siren} is ${frenchVatNumber(body.siren)}`,
      });
  })
  .openapi('UpdateCompanySettingsRequest');

export type CompanySettings = z.infer<typeof CompanySettingsSchema>;
export const COMPANY_FIELDS = Object.keys(fields) as (keyof Fields)[];

/** The formats an issued document is written in. */
export const EINVOICE_FORMATS = ['facturx', 'ubl', 'cii'] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

export const EInvoiceQuerySchema = z.object({
  format: z.enum(EINVOICE_FORMATS).default('facturx').openapi({
    description:
      '`facturx`: a PDF/A-3 (profile EN 16931) with the CII attached as `factur-x.xml`; `ubl`: UBL 2.1; `cii`: UN/CEFACT CII D16B. Default `facturx`.',
    example: 'facturx',
  }),
});

/** A failed rule of the EN 16931 validation, as `facture_electronique_invalide` lists them. */
export const FailedRuleSchema = z
  .object({
    id: z.string().openapi({ example: 'BR-CO-15' }),
    text: z.string().openapi({
      example:
        '[BR-CO-15]-Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
    }),
  })
  .openapi('FailedRule');
