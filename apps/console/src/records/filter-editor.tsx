import { type FormEvent, useEffect, useState } from 'react';
import { type Catalogue, fieldLabels } from './catalogue';
import type { FieldInfo, FilterOperator, ResourceInfo } from './catalogue-types';
import { kindOf } from './field-kinds';
import type { FilterRow } from './list-query';

const OPERATOR_NAMES: Record<FilterOperator, string> = {
  eq: 'equals',
  neq: 'differs from',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  like: 'matches (*)',
  ilike: 'matches, any case (*)',
  in: 'one of',
  is: 'is',
};

/**
 * One row per condition: field, operator (those the field's type allows) and value, written as
 * the API's `field=op.value`. Applying puts them in the address, which reloads the list.
 */
export function FilterEditor({
  catalogue,
  resource,
  filters,
  onApply,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  filters: FilterRow[];
  onApply(rows: FilterRow[]): void;
}) {
  const fields = resource.fields.filter((f) => f.filterable);
  const labels = fieldLabels(resource.fields);
  const [rows, setRows] = useState<FilterRow[]>(filters);
  // The address changed (applied, cleared, back button): show what it says. The form itself
  // stays mounted, so the button that applied keeps the focus.
  const applied = JSON.stringify(filters);
  useEffect(() => setRows(JSON.parse(applied)), [applied]);
  const operatorsOf = (name: string) => {
    const type = fields.find((f) => f.name === name)?.type ?? 'text';
    return catalogue.operators[type];
  };
  const update = (index: number, change: Partial<FilterRow>) =>
    setRows((current) =>
      current.map((row, i) => {
        if (i !== index) return row;
        const next = { ...row, ...change };
        if (change.field && !operatorsOf(change.field).includes(next.op)) next.op = 'eq';
        if (change.field || change.op) next.value = next.op === 'is' ? 'null' : '';
        return next;
      }),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(rows);
  };
  if (fields.length === 0) return null;

  return (
    <form className="filter-editor card" onSubmit={submit} aria-labelledby="filters-title">
      <h2 id="filters-title">Filters</h2>
      {rows.length === 0 ? <p className="muted">No filter: every record is listed.</p> : null}
      {rows.map((row, index) => {
        const field = fields.find((f) => f.name === row.field) ?? fields[0]!;
        const n = index + 1;
        return (
          <fieldset className="filter-row" key={index}>
            <legend className="visually-hidden">Filter {n}</legend>
            <div className="filter-value">
              <label className="small" htmlFor={`filter-${n}-field`}>
                Field
              </label>
              <select
                id={`filter-${n}-field`}
                value={row.field}
                onChange={(e) => update(index, { field: e.target.value })}
              >
                {fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {labels.get(f.name)}
                  </option>
                ))}
              </select>
            </div>
            <div className="filter-value">
              <label className="small" htmlFor={`filter-${n}-op`}>
                Operator
              </label>
              <select
                id={`filter-${n}-op`}
                value={row.op}
                onChange={(e) => update(index, { op: e.target.value as FilterOperator })}
              >
                {operatorsOf(row.field).map((op) => (
                  <option key={op} value={op}>
                    {OPERATOR_NAMES[op]}
                  </option>
                ))}
              </select>
            </div>
            <div className="filter-value">
              <label className="small" htmlFor={`filter-${n}-value`}>
                Value
              </label>
              <FilterValue
                id={`filter-${n}-value`}
                field={field}
                row={row}
                onChange={(value) => update(index, { value })}
              />
            </div>
            <button
              type="button"
              className="button"
              onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
            >
              Remove<span className="visually-hidden"> filter {n}</span>
            </button>
          </fieldset>
        );
      })}
      <div className="row">
        <button
          type="button"
          className="button"
          onClick={() =>
            setRows((current) => [...current, { field: fields[0]!.name, op: 'eq', value: '' }])
          }
        >
          Add filter
        </button>
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        {filters.length ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setRows([]);
              onApply([]);
            }}
          >
            Clear
          </button>
        ) : null}
      </div>
    </form>
  );
}

function FilterValue({
  id,
  field,
  row,
  onChange,
}: {
  id: string;
  field: FieldInfo;
  row: FilterRow;
  onChange(value: string): void;
}) {
  const kind = kindOf(field);
  if (row.op === 'is') {
    return (
      <select id={id} value={row.value} onChange={(e) => onChange(e.target.value)}>
        {kind.isValues.map((o) => (
          <option key={o} value={o}>
            {o === 'null' ? 'empty' : o}
          </option>
        ))}
      </select>
    );
  }
  if (row.op !== 'in' && kind.choices) {
    return (
      <select id={id} value={row.value} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {kind.choices(field).map((c) => (
          <option key={c.value}>{c.value}</option>
        ))}
      </select>
    );
  }
  const placeholder =
    row.op === 'in'
      ? 'a, b, c'
      : row.op === 'like' || row.op === 'ilike'
        ? '*part*'
        : (kind.filter.placeholder ?? '');
  return (
    <input
      id={id}
      type={row.op === 'in' ? 'text' : kind.filter.input}
      value={row.value}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
