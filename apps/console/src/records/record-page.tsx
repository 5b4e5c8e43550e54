import type { ApiError } from '@erp/sdk';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useMe } from '../api/auth';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { PostingsSection } from '../books/postings-section';
import { SettlementSection } from '../books/settlement-section';
import { EInvoiceSection } from '../einvoicing/einvoice-section';
import { ConvertButton } from '../goods/convert-dialog';
import { countedFields, openConversions } from '../goods/flow';
import { MadeFrom, MadeInto } from '../goods/flow-section';
import { ProductStockSection } from '../goods/product-stock-section';
import { ErrorBanner, Loading, Notice } from '../ui/alert';
import { ConfirmButton } from '../ui/dialog';
import { humanize } from '../ui/format';
import { NotFoundPage } from '../ui/not-found-page';
import { Page } from '../ui/page';
import { TableFrame } from '../ui/table-frame';
import {
  type Catalogue,
  canWrite,
  fieldLabels,
  recordLabel,
  resourceNoun,
  resourceTitle,
  useCatalogue,
} from './catalogue';
import type { FieldInfo, ResourceInfo } from './catalogue-types';
import { kindOf } from './field-kinds';
import { RecordHistory } from './record-history';
import { type ReferenceWant, useReferenceLabels } from './reference-labels';
import { displayValue } from './values';

type Row = Record<string, unknown>;

/** Whether the record may be edited or deleted in its current state. */
export function isEditable(resource: ResourceInfo, record: Row): boolean {
  return !resource.lifecycle || resource.lifecycle.editable.includes(String(record.status));
}

/** `/records/:path/:id`: every field, the lifecycle actions open from its status, edit, delete. */
export function RecordPage() {
  const { path, id } = useParams<{ path: string; id: string }>();
  const catalogue = useCatalogue();
  const resource = catalogue.byPath.get(path);
  if (!resource) return <NotFoundPage />;
  return <RecordDetail key={`${path}/${id}`} catalogue={catalogue} resource={resource} id={id} />;
}

function RecordDetail({
  catalogue,
  resource,
  id,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  id: string;
}) {
  const me = useMe();
  const [, navigate] = useLocation();
  const record = useLoad(
    (signal) => raw.get(`/api/v1/${resource.path}/${id}`, { signal }),
    [resource.path, id],
  );
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const row = record.data as Row | undefined;
  const label = useReferenceLabels(catalogue, row ? referencesOf(resource.fields, row) : []);
  // The stock views are the engine's own: read, never written.
  const writable = canWrite(me, resource.module) && !resource.readOnly;
  const titles = fieldLabels(resource.fields);

  if (!row) {
    return (
      <Page title={humanize(resource.name)}>
        <ErrorBanner error={record.error} />
        {record.loading ? <Loading what={`the ${resourceNoun(resource)}`} /> : null}
      </Page>
    );
  }

  const act = async (action: string) => {
    const answer = await raw.post(`/api/v1/${resource.path}/${id}/${action}`, {});
    setError(answer.error);
    if (!answer.error) {
      setNotice(
        `${humanize(action)}: done, the ${resourceNoun(resource)} is now ${String((answer.data as Row).status)}.`,
      );
      record.reload();
    }
  };
  const remove = async () => {
    const answer = await raw.delete(`/api/v1/${resource.path}/${id}`, {});
    if (answer.error) setError(answer.error);
    else navigate(`/records/${resource.path}`);
  };
  const actions =
    resource.lifecycle?.actions.filter((a) => a.from.includes(String(row.status))) ?? [];
  const editable = writable && isEditable(resource, row);
  const currency = row.currency;

  return (
    <Page
      title={`${humanize(resource.name)} ${recordLabel(resource, row)}`}
      actions={
        writable ? (
          <>
            {actions.map((a) => (
              <button
                key={a.name}
                type="button"
                className="button button-primary"
                title={a.description}
                onClick={() => act(a.name)}
              >
                {humanize(a.name)}
              </button>
            ))}
            {openConversions(resource, row.status).map((c) => (
              <ConvertButton
                key={c.name}
                catalogue={catalogue}
                resource={resource}
                record={row}
                conversion={c}
              />
            ))}
            {editable ? (
              <Link href={`/records/${resource.path}/${id}/edit`} className="button">
                Edit
              </Link>
            ) : null}
            {editable ? (
              <ConfirmButton
                label="Delete"
                title={`Delete this ${resourceNoun(resource)}?`}
                question="It cannot be undone. Records that refer to it prevent the deletion."
                confirm="Delete"
                onConfirm={remove}
              />
            ) : null}
          </>
        ) : null
      }
    >
      <p>
        <Link href={`/records/${resource.path}`}>← {resourceTitle(resource)}</Link>
      </p>
      <MadeFrom catalogue={catalogue} resource={resource} record={row} />
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBanner error={error} />
      <dl className="facts card record-fields">
        {resource.fields
          .filter((f) => kindOf(f).shown !== 'lines')
          .map((f) => (
            <FieldValue
              key={f.name}
              catalogue={catalogue}
              field={f}
              value={row[f.name]}
              currency={currency}
              title={titles.get(f.name) ?? f.name}
              label={label}
            />
          ))}
      </dl>
      {resource.fields
        .filter((f) => kindOf(f).shown === 'lines')
        .map((f) => (
          <LinesTable
            key={f.name}
            field={f}
            counted={countedFields(resource, f)}
            lines={(row[f.name] as Row[] | null) ?? []}
            currency={currency}
            label={label}
          />
        ))}
      <EInvoiceSection resource={resource} record={row} />
      <MadeInto catalogue={catalogue} resource={resource} record={row} />
      <SettlementSection
        catalogue={catalogue}
        resource={resource}
        record={row}
        onChanged={record.reload}
      />
      <PostingsSection
        catalogue={catalogue}
        resource={resource}
        id={id}
        changedAt={String(row.updated_at)}
      />
      <ProductStockSection
        catalogue={catalogue}
        resource={resource}
        id={id}
        changedAt={String(row.updated_at)}
      />
      {resource.readOnly ? null : (
        <RecordHistory
          resource={resource}
          id={id}
          changedAt={String(row.updated_at)}
          currency={currency}
          label={label}
        />
      )}
    </Page>
  );
}

type Labeler = ReturnType<typeof useReferenceLabels>;

function referencesOf(fields: FieldInfo[], row: Row): ReferenceWant[] {
  const wants: ReferenceWant[] = [];
  for (const f of fields) {
    if (kindOf(f).shown === 'reference' && f.ref) wants.push({ target: f.ref, ids: [row[f.name]] });
    if (kindOf(f).shown === 'lines')
      for (const line of f.fields ?? [])
        if (kindOf(line).shown === 'reference' && line.ref)
          wants.push({
            target: line.ref,
            ids: ((row[f.name] as Row[] | null) ?? []).map((l) => l[line.name]),
          });
  }
  return wants;
}

function ReferenceValue({
  catalogue,
  field,
  value,
  label,
}: {
  catalogue: Catalogue;
  field: FieldInfo;
  value: unknown;
  label: Labeler;
}) {
  if (typeof value !== 'string') return <>—</>;
  const target = field.ref ? catalogue.byName.get(field.ref) : undefined;
  const text = label(field.ref, value) ?? value;
  return target ? (
    <Link href={`/records/${target.path}/${value}`}>{text}</Link>
  ) : (
    <code>{value}</code>
  );
}

function FieldValue({
  catalogue,
  field,
  value,
  currency,
  title,
  label,
}: {
  catalogue: Catalogue;
  field: FieldInfo;
  value: unknown;
  currency: unknown;
  title: string;
  label: Labeler;
}) {
  return (
    <>
      <dt>{title}</dt>
      <dd>
        {kindOf(field).shown === 'reference' ? (
          <ReferenceValue catalogue={catalogue} field={field} value={value} label={label} />
        ) : field.name === 'status' ? (
          <span className="badge">{String(value)}</span>
        ) : (
          displayValue(field, value, currency)
        )}
      </dd>
    </>
  );
}

/**
 * A document's lines; with `counted`, what its targets took of each line (delivered,
 * invoiced…) right after its quantity, so what remains reads at a glance.
 */
function LinesTable({
  field,
  counted,
  lines,
  currency,
  label,
}: {
  field: FieldInfo;
  counted: FieldInfo[];
  lines: Row[];
  currency: unknown;
  label: Labeler;
}) {
  const own = field.fields ?? [];
  const at = own.findIndex((c) => c.name === 'quantity') + 1;
  const columns = at ? [...own.slice(0, at), ...counted, ...own.slice(at)] : [...own, ...counted];
  const heading = (c: FieldInfo) =>
    counted.includes(c) ? humanize(c.name.replace(/_quantity$/, '')) : humanize(c.name);
  return (
    <section aria-labelledby={`lines-${field.name}`}>
      <h2 id={`lines-${field.name}`}>{humanize(field.name)}</h2>
      {lines.length === 0 ? (
        <p>None.</p>
      ) : (
        <TableFrame label={humanize(field.name)}>
          {/* On a phone each line is a block of label and value rows (`stacked stacked-inline`). */}
          <table className="stacked stacked-inline">
            <thead>
              <tr>
                <th scope="col">#</th>
                {columns.map((c) => (
                  <th key={c.name} scope="col">
                    {heading(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lines.map((line, i) => (
                <tr key={i}>
                  <td data-label="#">{i + 1}</td>
                  {columns.map((c) => (
                    <td
                      key={c.name}
                      data-label={heading(c)}
                      className={kindOf(c).numeric.lines ? 'number' : undefined}
                    >
                      {kindOf(c).shown === 'reference'
                        ? (label(c.ref, line[c.name]) ?? displayValue(c, line[c.name]))
                        : counted.includes(c)
                          ? // A line nothing has counted yet has none (the portal reads it as 0).
                            String(line[c.name] ?? '0')
                          : displayValue(c, line[c.name], currency)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
    </section>
  );
}
