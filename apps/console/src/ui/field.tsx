import { type ReactNode, useId } from 'react';

export interface ControlProps {
  id: string;
  'aria-required'?: true;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/**
 * A labelled control with its hint and its error, wired together (`aria-describedby`,
 * `aria-invalid`), so the error the portal gives a field is read out with the field.
 */
export function Field({
  label,
  hint,
  error,
  required,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  required?: boolean | undefined;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <div className="field-label">
        <label htmlFor={id}>{label}</label>
        {/* Outside the label, so the field's name is its label alone; screen readers hear
            "required" from aria-required. */}
        {required ? (
          <span className="required" aria-hidden="true">
            required
          </span>
        ) : null}
      </div>
      {children({
        id,
        ...(required ? { 'aria-required': true as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
      })}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A group of checkboxes or radios under one legend. */
export function FieldSet({
  legend,
  hint,
  error,
  children,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset
      className={error ? 'field field-invalid' : 'field'}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{legend}</legend>
      {hint ? <p className="hint">{hint}</p> : null}
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
