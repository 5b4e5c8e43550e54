import type { ControlProps } from '../ui/field';
import type { Catalogue } from './catalogue';
import type { FieldInfo } from './catalogue-types';
import { ReferenceInput } from './reference-input';

/** The control of one scalar field, by its type; the value is the input's text. */
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
  switch (field.type) {
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
    case 'enum':
    case 'boolean': {
      const values = field.values ?? ['true', 'false'];
      return (
        <select {...common}>
          <option value="">{field.required ? 'Choose…' : '—'}</option>
          {values.map((v) => (
            <option key={v} value={v}>
              {field.type === 'boolean' ? (v === 'true' ? 'Yes' : 'No') : v}
            </option>
          ))}
        </select>
      );
    }
    case 'integer':
      return <input {...common} type="number" step={1} min={field.min} max={field.max} />;
    case 'money':
      return <input {...common} inputMode="decimal" autoComplete="off" />;
    case 'decimal':
      return <input {...common} inputMode="decimal" autoComplete="off" />;
    case 'date':
      return <input {...common} type="date" />;
    case 'timestamp':
      return <input {...common} type="datetime-local" />;
    case 'email':
      return <input {...common} type="email" maxLength={field.maxLength} />;
    case 'json':
      return <textarea {...common} rows={4} spellCheck={false} />;
    default:
      return (field.maxLength ?? 0) > 500 ? (
        <textarea {...common} rows={3} maxLength={field.maxLength} />
      ) : (
        <input {...common} maxLength={field.maxLength} />
      );
  }
}
