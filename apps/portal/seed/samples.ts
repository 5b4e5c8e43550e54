import { type Field, PARTY_ACCOUNTS, type Resource, sampleOf } from '@erp/contract';
import type { Faker } from '@faker-js/faker';
import { fakerFor, fakeText } from './fake';

/** Ids of existing records by resource name (`user`: members of the tenant), to fill references. */
export type ReferencePool = ReadonlyMap<string, readonly string[]>;

/**
 * A valid create body for a resource, varied by `n` and the same for the same `n` on every run:
 * every required field, most optional ones, text from fake data where the field's kind or name
 * says what it holds, references drawn from `refs`. Used by the seed and by generated tests.
 */
export function sampleBody(
  resource: Resource,
  n: number,
  refs: ReferencePool,
): Record<string, unknown> {
  const faker = fakerFor(resource.name, n);
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field.required && n % 4 === 3) continue; // leave some optional fields empty
    // A party's own receivable (payable) account must be one: the sample's accounts are not,
    // so the party posts to the settings' account.
    if (PARTY_FIELDS.has(`${resource.name}.${name}`)) continue;
    const value = sampleValue(name, field, n, refs, faker, resource.name);
    if (value !== undefined) body[name] = value;
  }
  return oneParty(resource, body);
}

const PARTY_FIELDS = new Set(Object.values(PARTY_ACCOUNTS).map((p) => `${p.resource}.${p.field}`));

/**
 * A document posts exactly one entry (SPEC §17): when its posting rules name different parties
 * (a payment's customer or supplier), the sample keeps the party of the first rule that applies
 * to it and leaves the others out.
 */
function oneParty(resource: Resource, body: Record<string, unknown>): Record<string, unknown> {
  const rules = resource.postings ?? [];
  const parties = [...new Set(rules.map((r) => r.party.field))];
  if (parties.length < 2) return body;
  const rule = rules.find((r) => !r.when || body[r.when.field] === r.when.equals);
  for (const party of parties) if (party !== rule?.party.field) delete body[party];
  return body;
}

/** One plausible value of a field: fake data, its type's sample, or a reference from `refs`. */
export function sampleValue(
  name: string,
  field: Field,
  n: number,
  refs: ReferencePool,
  faker: Faker = fakerFor(name, n),
  resource = '',
): unknown {
  switch (field.type) {
    case 'reference': {
      const pool = refs.get(field.resource) ?? [];
      // A stride prime to the pool's size spreads records over it (also over the earlier
      // records of a resource referring to itself, whose pool grows as they are made).
      if (pool.length > 0) return pool[(n * 7 + 3) % pool.length];
      if (field.required) throw new Error(`no ${field.resource} to reference`);
      return undefined;
    }
    case 'lines': {
      // Debit and credit lines (a journal entry's) balance, each on one side, two at least:
      // what the books ask of a posted entry (SPEC §17), so a sample entry can be posted.
      const ledger = 'debit_cents' in field.fields && 'credit_cents' in field.fields;
      return Array.from({ length: ledger ? 2 + (n % 3) : 1 + (n % 3) }, (_, i) => {
        const line: Record<string, unknown> = {};
        for (const [lineName, lineField] of Object.entries(field.fields)) {
          // A line's tax must carry its rate on the document's date to be posted (SPEC §17):
          // samples leave it out rather than name a tax whose rates they do not know. A ledger
          // line naming a customer or supplier posts only to a receivable or payable account:
          // samples name none (their accounts are neither).
          if (lineName === 'tax_id') continue;
          if (ledger && (lineName === 'customer_id' || lineName === 'supplier_id')) continue;
          const value =
            lineName === 'tax_rate'
              ? ['20', '10', '5.5'][i % 3]
              : sampleValue(lineName, lineField, n + i, refs, faker, resource);
          if (value !== undefined) line[lineName] = value;
        }
        if (ledger) {
          // The first line debits what the others credit.
          const credit = (k: number) => 1_000 * (n + k);
          const others = 1 + (n % 3);
          line.debit_cents =
            i === 0
              ? Array.from({ length: others }, (_, k) => credit(k + 1)).reduce((a, b) => a + b, 0)
              : 0;
          line.credit_cents = i === 0 ? 0 : credit(i);
        }
        return line;
      });
    }
    case 'text': {
      if (field.example !== undefined && n === 0) return String(field.example);
      return (
        fakeText(name, field, faker, n, resource) ??
        `${faker.commerce.productAdjective()} ${name.replace(/_/g, ' ')} ${n + 1}`.slice(
          0,
          field.maxLength,
        )
      );
    }
    case 'boolean':
      // A sample account takes postings: a group account only sums its children, and the
      // books refuse a posting to it (`compte_invalide`).
      if (name === 'is_group' && resource === 'account') return false;
      return sampleOf(field, n);
    case 'enum':
      // Nor is it a receivable or payable account, whose lines must name their party.
      if (name === 'sub_type' && resource === 'account') return 'other';
      return sampleOf(field, n);
    case 'email':
      return faker.internet
        .email({ provider: 'example.test', allowSpecialCharacters: false })
        .toLowerCase()
        .slice(0, field.maxLength);
    default:
      return sampleOf(field, n);
  }
}
