import { Field } from '../ui/field';
import { humanize } from '../ui/format';
import type { Catalogue } from './catalogue';
import type { FieldInfo } from './catalogue-types';
import { FieldInput } from './field-input';

export type LineValues = Record<string, string>;

/** A document's lines: one group of inputs per line, added and removed with buttons. */
export function LinesInput({
  catalogue,
  field,
  lines,
  onChange,
  errors,
}: {
  catalogue: Catalogue;
  field: FieldInfo;
  lines: LineValues[];
  onChange(lines: LineValues[]): void;
  errors: Record<string, string>;
}) {
  const columns = field.fields ?? [];
  const own = errors[field.name];
  const set = (index: number, name: string, value: string) =>
    onChange(lines.map((line, i) => (i === index ? { ...line, [name]: value } : line)));
  return (
    <fieldset className="lines" aria-describedby={own ? `${field.name}-error` : undefined}>
      <legend>
        {humanize(field.name)}
        {field.required ? <span className="required"> (required)</span> : null}
      </legend>
      {own ? (
        <p className="field-error" id={`${field.name}-error`}>
          {own}
        </p>
      ) : null}
      {lines.map((line, index) => (
        <fieldset className="line" key={index}>
          <legend>Line {index + 1}</legend>
          <div className="line-fields">
            {columns.map((c) => (
              <Field
                key={c.name}
                label={humanize(c.name)}
                required={c.required}
                error={errors[`${field.name}.${index}.${c.name}`]}
              >
                {(control) => (
                  <FieldInput
                    catalogue={catalogue}
                    field={c}
                    value={line[c.name] ?? ''}
                    onChange={(value) => set(index, c.name, value)}
                    control={control}
                  />
                )}
              </Field>
            ))}
          </div>
          <button
            type="button"
            className="button"
            onClick={() => onChange(lines.filter((_, i) => i !== index))}
          >
            Remove line {index + 1}
          </button>
        </fieldset>
      ))}
      {lines.length < (field.maxItems ?? Number.POSITIVE_INFINITY) ? (
        <button type="button" className="button" onClick={() => onChange([...lines, {}])}>
          Add a line
        </button>
      ) : null}
    </fieldset>
  );
}
