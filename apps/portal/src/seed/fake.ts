import type { FakeKind, Field } from '@erp/contract';
import { type Faker, fakerFR } from '@faker-js/faker';

/**
 * The demo tenant is a French company trading in Europe: French names and addresses by
 * default, customers and suppliers in the neighbouring countries, amounts in EUR.
 */
export const COUNTRIES = ['FR', 'FR', 'FR', 'BE', 'DE', 'ES', 'IT', 'NL', 'CH', 'GB'] as const;

/** Faker seeded from a key and a number: the same record gets the same values on every run. */
export function fakerFor(key: string, n: number): Faker {
  let hash = 2_166_136_261;
  for (const c of key) hash = Math.imul(hash ^ c.charCodeAt(0), 16_777_619) >>> 0;
  fakerFR.seed(hash + n);
  return fakerFR;
}

const GENERATORS: Record<FakeKind, (f: Faker, n: number) => string> = {
  company: (f) => f.company.name(),
  person_name: (f) => f.person.fullName(),
  first_name: (f) => f.person.firstName(),
  last_name: (f) => f.person.lastName(),
  job_title: (f) => f.person.jobTitle(),
  department: (f) => f.commerce.department(),
  phone: (f) => f.phone.number({ style: 'international' }),
  street: (f) => f.location.streetAddress(),
  city: (f) => f.location.city(),
  postal_code: (f) => f.location.zipCode(),
  region: (f) => f.location.state(),
  country_code: (_f, n) => COUNTRIES[n % COUNTRIES.length]!,
  // The demo company keeps its books and trades in euros.
  currency_code: () => 'EUR',
  iban: (f) => f.finance.iban({ formatted: false, countryCode: 'FR' }),
  bic: (f) => f.finance.bic(),
  vat_number: (f) => `FR${f.string.numeric(11)}`,
  url: (f) => f.internet.url(),
  sku: (f, n) => `${f.string.alpha({ length: 3, casing: 'upper' })}-${1000 + n}`,
  barcode: (f) => f.commerce.isbn({ variant: 13, separator: '' }),
  serial_number: (f, n) => `SN${f.string.numeric(6)}${n}`,
  product_name: (f) => f.commerce.productName(),
  code: (f, n) => `${f.string.alpha({ length: 3, casing: 'upper' })}${n + 1}`,
  word: (f) => f.lorem.word(),
  words: (f) => f.commerce.productAdjective() + ' ' + f.lorem.word(),
  sentence: (f) => f.lorem.sentence(),
  paragraph: (f) => f.lorem.paragraph(),
  color: (f) => f.color.human(),
};

/** What a field's name says it holds, when its declaration names no kind. */
const BY_NAME: [RegExp, FakeKind][] = [
  [/(^|_)(company|supplier|customer)_?name$|^legal_name$/, 'company'],
  [/(^|_)(contact|person|full)_name$/, 'person_name'],
  [/^first_name$/, 'first_name'],
  [/^last_name$/, 'last_name'],
  [/job_title|^title$/, 'job_title'],
  [/phone|mobile|fax/, 'phone'],
  [/street/, 'street'],
  [/(^|_)city$/, 'city'],
  [/postal_code|zip/, 'postal_code'],
  [/(^|_)state$|region/, 'region'],
  [/country_code$/, 'country_code'],
  [/(^|_)currency$/, 'currency_code'],
  [/iban/, 'iban'],
  [/(^|_)(bic|swift)$/, 'bic'],
  [/vat_number|tax_id/, 'vat_number'],
  [/website|url$/, 'url'],
  [/(^|_)sku$/, 'sku'],
  [/barcode|ean/, 'barcode'],
  [/serial/, 'serial_number'],
  [/(^|_)code$/, 'code'],
  [/notes|description|comment|message|body|terms/, 'sentence'],
];

/** A fake value for a text field, or undefined when neither its kind nor its name says what it is. */
export function fakeText(
  name: string,
  field: Field & { maxLength: number },
  faker: Faker,
  n: number,
): string | undefined {
  const kind = field.fake ?? BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
  if (!kind) return undefined;
  return GENERATORS[kind](faker, n).slice(0, field.maxLength);
}
