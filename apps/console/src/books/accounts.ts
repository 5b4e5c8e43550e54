import type { components } from '@erp/sdk';
import { client, type Outcome } from '../api/client';

export type Account = Pick<components['schemas']['Account'], 'id' | 'code' | 'name' | 'status'>;

const FIELDS = ['code', 'name', 'status'] as const;

/** These accounts (a page of postings names a handful), by id. */
export async function accountsByIds(
  ids: readonly string[],
  signal: AbortSignal,
): Promise<Outcome<Map<string, Account>>> {
  const wanted = [...new Set(ids)].slice(0, 200);
  if (!wanted.length) return { data: new Map() };
  const answer = await client.get('/api/v1/accounts', {
    query: { id: `in.(${wanted.join(',')})`, page_size: 200, select: [...FIELDS] },
    signal,
  });
  if (answer.error) return { error: answer.error };
  return { data: new Map(answer.data.data.map((a) => [a.id, a])) };
}

/** The accounts that take postings (not groups), by code, every page of them. */
export async function postableAccounts(signal: AbortSignal): Promise<Outcome<Account[]>> {
  const accounts: Account[] = [];
  for await (const page of client.pages('/api/v1/accounts', {
    query: { is_group: 'eq.false', order: 'code.asc', page_size: 200, select: [...FIELDS] },
    signal,
  })) {
    if (page.error) return { error: page.error };
    accounts.push(...page.data.data);
  }
  return { data: accounts };
}

/** `411000 Clients`. */
export function accountName(account: Pick<Account, 'code' | 'name'>): string {
  return `${account.code} ${account.name}`;
}
