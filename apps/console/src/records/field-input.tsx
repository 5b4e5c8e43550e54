import type { ControlProps } from '../ui/field';
import type { Catalogue } from './catalogue';
import type { FieldInfo } from './catalogue-types';
import { kindOf } from './field-kinds';
import { ReferenceInput } from './reference-input';

/** The control of one scalar field, by its type's row (field-kinds.ts); the value is the input's text. */
export function FieldInput({
  catalogue,
  field,
  value,
  onChange,
  control,
}: {
  catalogue: Catalogue;
  field: FieldInfo;
  value: string;
  onChange(value: string): void;
  control: ControlProps;
}) {
  const common = {
    ...control,
    value,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  const kind = kindOf(field);
  switch (kind.control) {
    case 'reference':
      return (
        <ReferenceInput
          catalogue={catalogue}
          field={field}
          value={value}
          onChange={onChange}
          control={control}
        />
      );
    case 'choice':
      return (
        <select {...common}>
          <option value="">{field.required ? 'Choose…' : '—'}</option>
          {(kind.choices?.(field) ?? []).map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
    case 'integer':
      return <input {...common} type="number" step={1} min={field.min} max={field.max} />;
    case 'decimal':
      return <input {...common} inputMode="decimal" autoComplete="off" />;
    case 'date':
      return <input {...common} type="date" />;
    case 'datetime':
      return <input {...common} type="datetime-local" />;
    case 'email':
      return <input {...common} type="email" maxLength={field.maxLength} />;
    case 'json':
      return <textarea {...common} rows={4} spellCheck={false} />;
    // A `lines` field has its own group of inputs (lines-input.tsx) and never comes here.
    case 'lines':
    case 'text':
      return (field.maxLength ?? 0) > 500 ? (
        <textarea {...common} rows={3} maxLength={field.maxLength} />
      ) : (
        <input {...common} maxLength={field.maxLength} />
      );
  }
}
