/**
 * What the books panels of a record page need, read from the catalogue (SPEC §17): which
 * resource holds the journal entries, the payments and the allocations, how a document's
 * entries point back at it, which allocation field names it. No resource is named here: a
 * document that starts posting appears with `pnpm codegen`.
 */
import type { Catalogue } from '../records/catalogue';
import type { FieldInfo, PostingLinkInfo, ResourceInfo } from '../records/catalogue-types';

type Role = 'entry' | 'payment' | 'allocation';

/** The resource playing `role` in the books (journal entries, payments, allocations). */
export function booksResource(catalogue: Catalogue, role: Role): ResourceInfo | undefined {
  return catalogue.resources.find((r) => r.books?.role === role);
}

/**
 * How the journal entries of `resource` name it: its postings' link, else the entries'
 * `source_type` when that lists the resource (allocations post write-offs that way).
 */
export function postingLink(
  catalogue: Catalogue,
  resource: ResourceInfo,
): PostingLinkInfo | undefined {
  if (resource.books?.link) return resource.books.link;
  const entries = booksResource(catalogue, 'entry');
  const source = entries?.fields.find((f) => f.name === 'source_type');
  return source?.values?.includes(resource.name) ? { source_type: resource.name } : undefined;
}

/** The list filters of the entries that record the document `id`. */
export function postingsFilter(link: PostingLinkInfo, id: string): Record<string, string> {
  return 'column' in link
    ? { [link.column]: `eq.${id}` }
    : { source_type: `eq.${link.source_type}`, source_id: `eq.${id}` };
}

/** The field of `from` that references `target` (an allocation's `invoice_id`…). */
export function referenceTo(from: ResourceInfo, target: ResourceInfo): FieldInfo | undefined {
  return from.fields.find((f) => f.type === 'reference' && f.ref === target.name);
}

/** The state a posting action leads to (`comptabilise`), if the resource has one. */
export function postedState(resource: ResourceInfo): string | undefined {
  return resource.lifecycle?.actions.find((a) => a.posts)?.to;
}

/** Whether a document in `status` may still be settled (posted, not yet fully). */
export function isSettleable(resource: ResourceInfo, status: unknown): boolean {
  const settlement = resource.lifecycle?.settlement;
  return !!settlement && (status === settlement.from || status === settlement.partial);
}

/**
 * How an entry reads: `posted`, `reversed` (posted, then undone by a reversal), a draft's own
 * status otherwise.
 */
export function entryState(
  entries: ResourceInfo,
  entry: { status?: unknown; posted_at?: unknown },
): string {
  if (entry.status === postedState(entries)) return 'posted';
  if (entry.posted_at) return 'reversed';
  return String(entry.status);
}
