import type { FakeKind, Field } from '@erp/contract';
import { type Faker, fakerFR } from '@faker-js/faker';

/**
 * The demo tenant is a French company trading in Europe: French names and addresses by
 * default, customers and suppliers in the neighbouring countries, amounts in EUR.
 */
export const COUNTRIES = ['FR', 'FR', 'FR', 'BE', 'DE', 'ES', 'IT', 'NL', 'CH', 'GB'] as const;

/** What people write in the notes of ERP records (faker's sentences are lorem ipsum). */
const NOTES = [
  'Livraison sur rendez-vous, quai n° 3.',
  'Client prioritaire : confirmer les délais par téléphone.',
  'Facturer à la livraison, conditions habituelles.',
  'Prévoir un emballage renforcé.',
  'Relancer avant la fin du mois.',
  'Accord obtenu lors de la réunion du lundi.',
  'Remise de 5 % accordée sur la commande suivante.',
  'Vérifier le numéro de TVA intracommunautaire.',
  'Contact principal absent jusqu’au 15, joindre l’assistante.',
  'À traiter en même temps que la commande précédente.',
  'Pièces de rechange à commander chez le fournisseur habituel.',
  'Documents signés reçus par courrier.',
  'Budget validé par la direction financière.',
  'Suivi hebdomadaire avec le chef de projet.',
  'Attention : adresse de livraison différente de l’adresse de facturation.',
  'Paiement par virement à réception de facture.',
  'Formation prévue sur site, salle B.',
  'Demande transmise au service qualité.',
  'Devis à réviser selon les nouveaux tarifs.',
  'Stock à contrôler avant expédition.',
] as const;

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
  word: (f) => f.commerce.productMaterial(),
  words: (f) => `${f.commerce.productAdjective()} ${f.commerce.productMaterial()}`,
  sentence: (f) => f.helpers.arrayElement(NOTES),
  paragraph: (f) => `${f.helpers.arrayElement(NOTES)} ${f.commerce.productDescription()}`,
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

/** What a record's `name` is, from what the resource is (a product's is a product name…). */
const NAME_BY_RESOURCE: [RegExp, FakeKind][] = [
  [/product|variant|item/, 'product_name'],
  [/customer|supplier|competitor|carrier|insurer|lessor|partner|company/, 'company'],
  [/employee|person|contact|applicant|salesperson|member/, 'person_name'],
];

/**
 * A fake value for a text field, or undefined when neither its kind nor its name says what it
 * is. `resource` tells what a bare `name` holds; otherwise a name reads `<Resource> <City>`
 * (« Warehouse Lyon », « Sales team Nantes »), never a lorem word.
 */
export function fakeText(
  name: string,
  field: Field & { maxLength: number },
  faker: Faker,
  n: number,
  resource = '',
): string | undefined {
  const kind =
    field.fake ??
    BY_NAME.find(([pattern]) => pattern.test(name))?.[1] ??
    (name === 'name'
      ? NAME_BY_RESOURCE.find(([pattern]) => pattern.test(resource))?.[1]
      : undefined);
  if (kind) return GENERATORS[kind](faker, n).slice(0, field.maxLength);
  if (name !== 'name' || !resource) return undefined;
  const label = resource.replace(/_/g, ' ');
  return `${label[0]!.toUpperCase()}${label.slice(1)} ${faker.location.city()}`.slice(
    0,
    field.maxLength,
  );
}
