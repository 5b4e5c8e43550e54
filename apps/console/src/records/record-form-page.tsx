import type { ApiError } from '@erp/sdk';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { raw } from '../api/client';
import { fieldErrors } from '../api/errors';
import { ErrorBanner, Loading } from '../ui/alert';
import { Field } from '../ui/field';
import { inlineCode } from '../ui/inline-code';
import { NotFoundPage } from '../ui/not-found-page';
import { Page } from '../ui/page';
import { type Catalogue, fieldLabels, recordLabel, resourceNoun, useCatalogue } from './catalogue';
import type { FieldInfo, ResourceInfo } from './catalogue-types';
import { FieldInput } from './field-input';
import { kindOf } from './field-kinds';
import { LinesInput, type LineValues } from './lines-input';
import { rememberLabel } from './reference-labels';
import { fromInput, toInput } from './values';

type Row = Record<string, unknown>;
interface FormValues {
  scalars: Record<string, string>;
  lines: Record<string, LineValues[]>;
}

/** `/records/:path/new` and `/records/:path/:id/edit`: a form built from the resource's fields. */
export function RecordFormPage() {
  const { path, id } = useParams<{ path: string; id?: string }>();
  const catalogue = useCatalogue();
  const resource = catalogue.byPath.get(path);
  if (!resource) return <NotFoundPage />;
  return id ? (
    <EditLoader key={id} catalogue={catalogue} resource={resource} id={id} />
  ) : (
    <RecordForm key={path} catalogue={catalogue} resource={resource} />
  );
}

function EditLoader({
  catalogue,
  resource,
  id,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  id: string;
}) {
  const [state, setState] = useState<{ row?: Row; etag?: string; error?: ApiError }>({});
  useEffect(() => {
    const controller = new AbortController();
    raw.get(`/api/v1/${resource.path}/${id}`, { signal: controller.signal }).then((answer) => {
      if (controller.signal.aborted) return;
      setState(
        answer.error
          ? { error: answer.error }
          : { row: answer.data as Row, etag: answer.response?.headers.get('etag') ?? undefined },
      );
    });
    return () => controller.abort();
  }, [resource.path, id]);
  if (!state.row) {
    return (
      <Page title={`Edit ${resourceNoun(resource)}`}>
        <ErrorBanner error={state.error} />
        {state.error ? null : <Loading what={`the ${resourceNoun(resource)}`} />}
      </Page>
    );
  }
  return (
    <RecordForm catalogue={catalogue} resource={resource} original={state.row} etag={state.etag} />
  );
}

const editableFields = (resource: ResourceInfo) => resource.fields.filter((f) => !f.readOnly);

/**
 * A new record's form starts from `row`, or from the address's query (`?name=…&vat_number=…`:
 * a link that says what to create, like an e-invoice's unknown seller), scalar fields only.
 */
function initialValues(resource: ResourceInfo, row: Row | undefined, search = ''): FormValues {
  const values: FormValues = { scalars: {}, lines: {} };
  const given = row ? undefined : new URLSearchParams(search);
  for (const f of editableFields(resource)) {
    if (kindOf(f).control === 'lines') {
      // A new document with required lines starts with one to fill in.
      const start = row ? ((row[f.name] as Row[] | null) ?? []) : f.required ? [{}] : [];
      values.lines[f.name] = start.map((line) =>
        Object.fromEntries(
          (f.fields ?? []).map((c) => [c.name, toInput(c, line[c.name], row?.currency)]),
        ),
      );
    } else values.scalars[f.name] = given?.get(f.name) ?? toInput(f, row?.[f.name], row?.currency);
  }
  return values;
}

/** The API body: every filled field on create; on edit, only what changed (null clears). */
function bodyOf(resource: ResourceInfo, values: FormValues, original: Row | undefined): Row {
  const currency = values.scalars.currency || original?.currency;
  const body: Row = {};
  for (const f of editableFields(resource)) {
    let value: unknown;
    if (kindOf(f).control === 'lines') {
      value = (values.lines[f.name] ?? []).map((line) => {
        const out: Row = {};
        for (const c of f.fields ?? []) {
          const v = fromInput(c, line[c.name] ?? '', currency);
          if (v !== undefined) out[c.name] = v;
        }
        return out;
      });
    } else value = fromInput(f, values.scalars[f.name] ?? '', currency);
    if (!original) {
      if (value !== undefined && !(Array.isArray(value) && value.length === 0 && !f.required))
        body[f.name] = value;
      continue;
    }
    const before = original[f.name] ?? undefined;
    if (value === undefined && before !== undefined) body[f.name] = null;
    else if (value !== undefined && JSON.stringify(value) !== JSON.stringify(before))
      body[f.name] = value;
  }
  return body;
}

function RecordForm({
  catalogue,
  resource,
  original,
  etag,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  original?: Row;
  etag?: string | undefined;
}) {
  const [, navigate] = useLocation();
  const search = useSearch();
  const [values, setValues] = useState(() => initialValues(resource, original, search));
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = fieldErrors(error);
  const fields = editableFields(resource);
  const labels = fieldLabels(resource.fields);
  const known = new Set(fields.map((f) => f.name));
  // Errors the form cannot place next to a field (another path, or no issue list at all).
  const unplaced = Object.entries(errors).filter(([path]) => !known.has(path.split('.')[0]!));

  // After a refused submit, the first field in error gets the focus (its message is read with it).
  useEffect(() => {
    if (error) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const body = bodyOf(resource, values, original);
    const answer = original
      ? await raw.patch(`/api/v1/${resource.path}/${String(original.id)}`, {
          body,
          ...(etag ? { headers: { 'if-match': etag } } : {}),
        })
      : await raw.post(`/api/v1/${resource.path}`, { body });
    setBusy(false);
    setError(answer.error);
    if (answer.data) {
      const saved = answer.data as Row;
      rememberLabel(resource.name, String(saved.id), recordLabel(resource, saved));
      navigate(`/records/${resource.path}/${String(saved.id)}`);
    }
  };

  const title = original
    ? `Edit ${resourceNoun(resource)} ${recordLabel(resource, original)}`
    : `New ${resourceNoun(resource)}`;
  const cancel = original
    ? `/records/${resource.path}/${String(original.id)}`
    : `/records/${resource.path}`;
  return (
    <Page title={title}>
      <form className="form record-form" onSubmit={submit} noValidate ref={formRef}>
        {error && (Object.keys(errors).length === 0 || unplaced.length) ? (
          <div className="alert alert-error" role="alert">
            <p>{error.message}</p>
            {unplaced.length ? (
              <ul>
                {unplaced.map(([path, message]) => (
                  <li key={path}>
                    <code>{path}</code>: {message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : error ? (
          <p className="alert alert-error" role="alert">
            Some fields need attention: {Object.keys(errors).length}{' '}
            {Object.keys(errors).length === 1 ? 'problem' : 'problems'} below.
          </p>
        ) : null}
        <div className="form-grid">
          {fields
            .filter((f) => kindOf(f).control !== 'lines')
            .map((f) => (
              <Field
                key={f.name}
                label={labels.get(f.name)}
                required={f.required}
                error={errors[f.name]}
                hint={fieldHint(f)}
              >
                {(control) => (
                  <FieldInput
                    catalogue={catalogue}
                    field={f}
                    value={values.scalars[f.name] ?? ''}
                    onChange={(value) =>
                      setValues((v) => ({ ...v, scalars: { ...v.scalars, [f.name]: value } }))
                    }
                    control={control}
                  />
                )}
              </Field>
            ))}
        </div>
        {fields
          .filter((f) => kindOf(f).control === 'lines')
          .map((f) => (
            <LinesInput
              key={f.name}
              catalogue={catalogue}
              field={f}
              lines={values.lines[f.name] ?? []}
              onChange={(lines) =>
                setValues((v) => ({ ...v, lines: { ...v.lines, [f.name]: lines } }))
              }
              errors={errors}
            />
          ))}
        <div className="row">
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {original ? 'Save changes' : `Create ${resourceNoun(resource)}`}
          </button>
          <Link href={cancel} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </Page>
  );
}

function fieldHint(field: FieldInfo): ReactNode {
  return kindOf(field).hint ?? (field.description ? inlineCode(field.description) : undefined);
}
