import type { ApiError } from '@erp/sdk';
import { useState } from 'react';
import { Link } from 'wouter';
import { useMe } from '../api/auth';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { type Catalogue, canWrite } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { type ReferenceWant, useReferenceLabels } from '../records/reference-labels';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { ConfirmButton } from '../ui/dialog';
import { formatDate, humanize } from '../ui/format';
import { formatCents } from '../ui/money';
import { AllocateForm } from './allocate-form';
import { booksResource, isSettleable, referenceTo } from './books-catalogue';

type Row = Record<string, unknown>;

/**
 * How a document is settled (SPEC §17): what is still due and the allocations settling it
 * (for a payment: what it has applied and what is left), each deletable; on a posted document
 * not yet settled, the form allocating what may settle it (a payment, a credit note…).
 */
export function SettlementSection({
  catalogue,
  resource,
  record,
  onChanged,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  record: Row;
  onChanged(): void;
}) {
  const allocations = booksResource(catalogue, 'allocation');
  const field = allocations ? referenceTo(allocations, resource) : undefined;
  const settled = !!resource.lifecycle?.settlement || resource.books?.role === 'payment';
  if (!allocations || !field || !settled) return null;
  return (
    <Settlement
      catalogue={catalogue}
      resource={resource}
      allocations={allocations}
      field={field.name}
      record={record}
      onChanged={onChanged}
    />
  );
}

function Settlement({
  catalogue,
  resource,
  allocations,
  field,
  record,
  onChanged,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  allocations: ResourceInfo;
  field: string;
  record: Row;
  onChanged(): void;
}) {
  const me = useMe();
  const id = String(record.id);
  const currency = record.currency;
  const list = useLoad(
    (signal) =>
      raw.get(`/api/v1/${allocations.path}`, {
        query: { [field]: `eq.${id}`, page_size: 200 },
        signal,
      }),
    [allocations.path, field, id, String(record.updated_at)],
  );
  const rows = (list.data as { data?: Row[] } | undefined)?.data;
  // The other side of each allocation: the payment, or the note used instead of money.
  const others = allocations.fields.filter(
    (f) => f.type === 'reference' && f.name !== field && f.filterable,
  );
  const wants: ReferenceWant[] = others.flatMap((f) =>
    f.ref ? [{ target: f.ref, ids: (rows ?? []).map((r) => r[f.name]) }] : [],
  );
  const label = useReferenceLabels(catalogue, wants);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const writable = canWrite(me, allocations.module);
  const payment = resource.books?.role === 'payment';
  const changed = () => {
    onChanged();
    list.reload();
  };
  const money = (name: string) =>
    typeof record[name] === 'number' ? formatCents(record[name] as number, currency) : '—';

  const otherSide = (row: Row) => {
    const f = others.find((o) => typeof row[o.name] === 'string');
    const target = f?.ref ? catalogue.byName.get(f.ref) : undefined;
    if (!f || !target) return { text: '—' };
    const value = String(row[f.name]);
    return {
      text: label(f.ref, value) ?? `${humanize(target.name)} ${value.slice(-8)}`,
      href: `/records/${target.path}/${value}`,
    };
  };
  const remove = async (row: Row) => {
    const answer = await raw.delete(`/api/v1/${allocations.path}/${String(row.id)}`, {});
    setError(answer.error);
    setNotice(answer.error ? undefined : 'Allocation deleted: the amounts are due again.');
    if (!answer.error) changed();
  };

  return (
    <section aria-labelledby="settlement" className="settlement">
      <h2 id="settlement">Settlement</h2>
      <dl className="facts card">
        {payment ? (
          <>
            <dt>Amount</dt>
            <dd>{money('amount_cents')}</dd>
            <dt>Allocated</dt>
            <dd>{money('allocated_cents')}</dd>
            <dt>Left to allocate</dt>
            <dd>
              <strong>{money('unallocated_cents')}</strong>
            </dd>
          </>
        ) : (
          <>
            <dt>Total</dt>
            <dd>{money('total_cents')}</dd>
            <dt>Amount due</dt>
            <dd>
              <strong>{money('amount_due_cents')}</strong>
            </dd>
          </>
        )}
      </dl>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error ?? list.error} />
      <h3 id="allocations">Allocations</h3>
      {!rows && list.loading ? <Loading what="the allocations" /> : null}
      {rows?.length === 0 ? <p>None yet.</p> : null}
      {rows?.length ? (
        <div className="table-wrap">
          <table aria-labelledby="allocations" className="stacked">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">{payment ? 'Settles' : 'Settled by'}</th>
                <th scope="col" className="number">
                  Amount
                </th>
                <th scope="col" className="number">
                  Written off
                </th>
                {writable ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const other = otherSide(row);
                const amount = formatCents(row.amount_cents as number, row.currency);
                return (
                  <tr key={String(row.id)}>
                    <td className="nowrap" data-label="Date">
                      <Link href={`/records/${allocations.path}/${String(row.id)}`}>
                        {formatDate(String(row.allocation_date))}
                      </Link>
                    </td>
                    <td data-label={payment ? 'Settles' : 'Settled by'}>
                      {other.href ? <Link href={other.href}>{other.text}</Link> : other.text}
                    </td>
                    <td className="number" data-label="Amount">
                      {amount}
                    </td>
                    <td className="number" data-label="Written off">
                      {row.write_off_cents
                        ? formatCents(row.write_off_cents as number, row.currency)
                        : '—'}
                    </td>
                    {writable ? (
                      <td className="actions" data-label="Actions">
                        <ConfirmButton
                          label={
                            <>
                              Delete
                              <span className="visually-hidden">
                                {` the allocation of ${amount} (${other.text})`}
                              </span>
                            </>
                          }
                          title="Delete this allocation?"
                          question={`${amount} of ${other.text} will be due again; its postings (a write-off, an exchange difference) are reversed.`}
                          confirm="Delete allocation"
                          onConfirm={() => remove(row)}
                        />
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {writable && !payment && isSettleable(resource, record.status) ? (
        <AllocateForm
          catalogue={catalogue}
          resource={resource}
          allocations={allocations}
          field={field}
          record={record}
          onAllocated={(text) => {
            setError(undefined);
            setNotice(text);
            changed();
          }}
        />
      ) : null}
    </section>
  );
}
