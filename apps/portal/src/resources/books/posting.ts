import { ApiError, catalogue, type PostingRule, type Resource } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { insertRecord, transitionRecord } from '../records-write';
import type { Params } from '../sql-params';
import { type EntryLine, entryLines } from './entry-lines';
import { postingContext, postingContextSql, type RawPostingContext } from './posting-context';

const journalEntries = catalogue.find((r) => r.ledgerRole === 'entry')!;

/**
 * The one posting engine (SPEC §17): what a resource's lifecycle action posts, read from its
 * declared posting rules, written as a journal entry born posted through the engine itself (so
 * the entry has its number, events and history), which the database checks and turns into
 * ledger lines. The action that reverses a rule posts the mirror of what the rule posted.
 */
export function postsOnAction(resource: Resource, action: string): boolean {
  if (resource.ledgerRole === 'entry') return action === 'post' || action === 'cancel';
  return (resource.postings ?? []).some((r) => r.action === action || r.reverse === action);
}

/** Runs before the transition: what would refuse it with a clearer answer than the database's. */
export async function beforeAction(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
  action: string,
): Promise<void> {
  if (resource.ledgerRole === 'entry' && action === 'post') {
    // The database's CHECK would refuse it too, without the sums.
    const { rows } = await client.query<{ lines: EntryLine[] | null }>(
      `SELECT t.lines FROM ${resource.table} t WHERE t.tenant_id = $1 AND t.id = $2`,
      [tenantId, id],
    );
    if (rows[0]) checkBalanced(rows[0].lines ?? []);
  }
}

/**
 * What the transition's own statement reads for the postings of `action` (their contexts, over
 * the changed row), so that posting a document costs no round trip of its own before its entry.
 */
export function readAlongside(
  resource: Resource,
  action: string,
): ((params: Params) => string | undefined) | undefined {
  if (!resource.postings?.some((r) => r.action === action)) return undefined;
  return (params) => postingContextSql(resource, action, params, 'r');
}

/**
 * Runs after the transition, in its transaction: the postings of the action, or their reversal.
 * `doc` is the record the transition answered (as the API shows it: decimals as text), and
 * `alongside` what `readAlongside` had it read.
 */
export async function afterAction(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  action: string,
  actor: ActorRef,
  doc: Record<string, unknown>,
  alongside?: unknown,
): Promise<void> {
  if (resource.ledgerRole === 'entry') {
    if (action === 'cancel' && doc.posted_at) await reverseEntry(client, tenantId, doc, actor);
    return;
  }
  const posting = (resource.postings ?? []).filter((r) => r.action === action);
  if (posting.length) oneRuleApplies(resource, posting, doc);
  const contexts = (alongside ?? []) as (RawPostingContext | null)[];
  for (const rule of resource.postings ?? []) {
    if (!applies(rule, doc)) continue;
    if (rule.action === action) {
      const raw = contexts[posting.indexOf(rule)];
      if (!raw) throw new Error(`${resource.name}.${action}: no posting context was read`);
      await postDocument(client, tenantId, resource, rule, doc, raw, actor);
    }
    if (rule.reverse === action)
      await reverseDocument(client, tenantId, resource, rule, doc, actor);
  }
}

/**
 * A document posts exactly one entry: a payment names its customer or its supplier, not both
 * and not neither (what it would post is otherwise unknown, or twice).
 */
function oneRuleApplies(
  resource: Resource,
  rules: readonly PostingRule[],
  doc: Record<string, unknown>,
): void {
  if (rules.filter((rule) => applies(rule, doc)).length === 1) return;
  const parties = [...new Set(rules.map((r) => r.party.field))];
  throw new ApiError(
    'requete_invalide',
    `A ${resource.name.replace(/_/g, ' ')} to post names exactly one of ${parties.join(', ')}.`,
    {
      issues: parties.map((path) => ({
        location: 'json',
        path,
        code: 'one_party',
        message: `exactly one of ${parties.join(', ')}`,
      })),
    },
  );
}

function applies(rule: PostingRule, doc: Record<string, unknown>): boolean {
  if (rule.when && doc[rule.when.field] !== rule.when.equals) return false;
  return doc[rule.party.field] !== null && doc[rule.party.field] !== undefined;
}

async function postDocument(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  rule: PostingRule,
  doc: Record<string, unknown>,
  raw: RawPostingContext,
  actor: ActorRef,
): Promise<void> {
  const ctx = postingContext(rule, doc, raw);
  const lines = entryLines(rule, doc, ctx);
  checkBalanced(lines);
  await createPostedEntry(
    client,
    tenantId,
    {
      journal_id: ctx.journal.id,
      entry_date: doc[rule.date],
      entry_type: 'standard',
      reference: doc.number ?? null,
      description: `${resource.name.replace(/_/g, ' ')} ${doc.number ?? ''}`.trim(),
      currency: ctx.companyCurrency,
      ...linkOf(rule, doc),
      lines,
    },
    actor,
  );
}

/** The entries a rule posted for the document, reversed (cancelling it). */
async function reverseDocument(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  rule: PostingRule,
  doc: Record<string, unknown>,
  actor: ActorRef,
): Promise<void> {
  await refuseIfSettled(client, tenantId, resource, doc);
  await reverseEntries(client, tenantId, linkOf(rule, doc), actor);
}

/** Reverses every standard entry still posted for a link (a document, an allocation). */
export async function reverseEntries(
  client: pg.PoolClient,
  tenantId: string,
  link: Record<string, unknown>,
  actor: ActorRef,
): Promise<void> {
  const where = Object.keys(link)
    .map((column, i) => `${column} = $${i + 2}`)
    .join(' AND ');
  const { rows } = await client.query(
    `SELECT row_to_json(j) AS entry FROM journal_entries j
      WHERE j.tenant_id = $1 AND ${where} AND j.status = 'comptabilise' AND j.entry_type <> 'reversal'
      ORDER BY j.posted_at FOR UPDATE`,
    [tenantId, ...Object.values(link)],
  );
  for (const { entry } of rows) await reverseEntry(client, tenantId, entry, actor);
}

/** A document that allocations settle cannot be cancelled until they are deleted (SPEC §17). */
async function refuseIfSettled(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  doc: Record<string, unknown>,
): Promise<void> {
  const column = `${resource.name}_id`;
  const { rows } = await client.query(
    `SELECT id FROM payment_allocations WHERE tenant_id = $1 AND ${column} = $2 LIMIT 20`,
    [tenantId, doc.id],
  );
  if (rows.length)
    throw new ApiError(
      'document_lettre',
      'Allocations settle it: delete them before cancelling it.',
      { allocations: rows.map((r) => r.id) },
    );
}

/**
 * A reversal entry: the lines mirrored, dated by `reversalDate` (the database refuses a closed
 * period); the original becomes `annule`.
 */
async function reverseEntry(
  client: pg.PoolClient,
  tenantId: string,
  entry: Record<string, unknown>,
  actor: ActorRef,
): Promise<void> {
  const lines = ((entry.lines as EntryLine[]) ?? []).map((l) => ({
    ...l,
    debit_cents: l.credit_cents,
    credit_cents: l.debit_cents,
    ...(l.amount_currency_cents === undefined
      ? {}
      : { amount_currency_cents: -l.amount_currency_cents }),
  }));
  const date = await reversalDate(client, tenantId, String(entry.entry_date));
  await createPostedEntry(
    client,
    tenantId,
    {
      journal_id: entry.journal_id,
      entry_date: date,
      entry_type: 'reversal',
      reversed_entry_id: entry.id,
      reference: entry.reference ?? null,
      description: `Reversal of ${entry.number}`,
      currency: entry.currency,
      invoice_id: entry.invoice_id ?? null,
      supplier_invoice_id: entry.supplier_invoice_id ?? null,
      payment_id: entry.payment_id ?? null,
      source_type: entry.source_type ?? null,
      source_id: entry.source_id ?? null,
      lines,
    },
    actor,
  );
  if (entry.status === 'comptabilise')
    await transitionRecord(client, journalEntries, tenantId, String(entry.id), 'cancel', actor);
}

/**
 * A reversal's date (SPEC §17): the original's while its period is open, else the day of the
 * cancellation, else (that day's period closed too) the first open day after it.
 */
async function reversalDate(
  client: pg.PoolClient,
  tenantId: string,
  original: string,
): Promise<string> {
  const { rows } = await client.query<{ start: string; end: string; today: string }>(
    `SELECT start_date::text AS start, end_date::text AS end, current_date::text AS today
       FROM (SELECT start_date, end_date FROM accounting_periods WHERE tenant_id = $1 AND status = 'ferme'
             UNION ALL
             SELECT start_date, end_date FROM fiscal_years WHERE tenant_id = $1 AND status = 'ferme') closed
     UNION ALL SELECT NULL, NULL, current_date::text
     ORDER BY 1 NULLS LAST`,
    [tenantId],
  );
  const today = rows[0]!.today;
  const closed = rows.filter((r) => r.start !== null);
  const closing = (day: string) => closed.find((r) => r.start <= day && day <= r.end);
  if (!closing(original)) return original;
  let day = today;
  for (let range = closing(day); range; range = closing(day)) day = nextDay(range.end);
  return day;
}

function nextDay(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function linkOf(rule: PostingRule, doc: Record<string, unknown>): Record<string, unknown> {
  return 'column' in rule.link
    ? { [rule.link.column]: doc.id }
    : { source_type: rule.link.source_type, source_id: doc.id };
}

/**
 * Writes an entry already posted, in one statement (its number, history, and the events
 * `journal_entry.created` then `journal_entry.post`); the database checks it and writes the
 * ledger as for an entry posted by hand.
 */
export async function createPostedEntry(
  client: pg.PoolClient,
  tenantId: string,
  body: Record<string, unknown>,
  actor: ActorRef,
): Promise<void> {
  await insertRecord(client, journalEntries, tenantId, withoutNulls(body), actor, 'post');
}

function withoutNulls(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
}

/** Σ debit = Σ credit > 0, two lines at least, each on one side (SPEC §17). */
export function checkBalanced(lines: readonly EntryLine[]): void {
  const debit = lines.reduce((a, l) => a + (l.debit_cents ?? 0), 0);
  const credit = lines.reduce((a, l) => a + (l.credit_cents ?? 0), 0);
  const oneSided = lines.every((l) => l.debit_cents > 0 !== l.credit_cents > 0);
  if (lines.length < 2 || !oneSided || debit !== credit || debit === 0)
    throw new ApiError(
      'ecriture_desequilibree',
      'A posted entry needs at least two lines, each on one side, and as much debit as credit.',
      { debit_cents: debit, credit_cents: credit },
    );
}
