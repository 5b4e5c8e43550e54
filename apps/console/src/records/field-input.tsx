import type { ReactNode } from 'react';
import type { ControlProps } from '../ui/field';
import type { Catalogue } from './catalogue';
import type { FieldInfo } from './catalogue-types';
import { type FieldKind, kindOf } from './field-kinds';
import { ReferenceInput } from './reference-input';

interface InputProps {
  catalogue: Catalogue;
  field: FieldInfo;
  value: string;
  onChange(value: string): void;
  control: ControlProps;
}

/** The common props of a native input, select or text area. */
const native = ({ control, value, onChange }: InputProps) => ({
  ...control,
  value,
  onChange: (e: { target: { value: string } }) => onChange(e.target.value),
});

const textInput = (props: InputProps) =>
  (props.field.maxLength ?? 0) > 500 ? (
    <textarea {...native(props)} rows={3} maxLength={props.field.maxLength} />
  ) : (
    <input {...native(props)} maxLength={props.field.maxLength} />
  );

/** Each control of the field-kind table (field-kinds.ts) as an element. */
const CONTROLS: Record<FieldKind['control'], (props: InputProps) => ReactNode> = {
  text: textInput,
  email: (props) => <input {...native(props)} type="email" maxLength={props.field.maxLength} />,
  integer: (props) => (
    <input {...native(props)} type="number" step={1} min={props.field.min} max={props.field.max} />
  ),
  decimal: (props) => <input {...native(props)} inputMode="decimal" autoComplete="off" />,
  date: (props) => <input {...native(props)} type="date" />,
  datetime: (props) => <input {...native(props)} type="datetime-local" />,
  choice: (props) => (
    <select {...native(props)}>
      <option value="">{props.field.required ? 'Choose…' : '—'}</option>
      {(kindOf(props.field).choices?.(props.field) ?? []).map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  ),
  reference: (props) => <ReferenceInput {...props} />,
  json: (props) => <textarea {...native(props)} rows={4} spellCheck={false} />,
  // A `lines` field has its own group of inputs (lines-input.tsx) and never comes here.
  lines: textInput,
};

/** The control of one scalar field, by its type's row; the value is the input's text. */
export function FieldInput(props: InputProps) {
  return CONTROLS[kindOf(props.field).control](props);
}
