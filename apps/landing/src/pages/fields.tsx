import type { Child } from 'hono/jsx';
import type { FormErrors, FormValues } from './form-errors';

/** What every field needs to render its value and its error. */
export interface FormState {
  values: FormValues;
  errors?: FormErrors;
}

interface FieldProps {
  state: FormState;
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'number' | 'date';
  required?: boolean;
  hint?: string;
  autocomplete?: string;
  maxlength?: number;
  multiline?: boolean;
  min?: number;
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * A labelled input (or textarea) with its hint and error tied to it by `aria-describedby`;
 * `aria-invalid` when refused. The value comes back as it was typed.
 */
export function Field(props: FieldProps) {
  const id = `field-${props.name}`;
  const error = props.state.errors?.fields[props.name];
  const described = [props.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  const common = {
    id,
    name: props.name,
    required: props.required,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': described || undefined,
    autocomplete: props.autocomplete,
    maxlength: props.maxlength,
  };
  const value = one(props.state.values[props.name]) ?? '';
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required ? '' : <span class="hint"> (optional)</span>}
      </label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.multiline ? (
        <textarea {...common} rows={6}>
          {value}
        </textarea>
      ) : (
        <input {...common} type={props.type ?? 'text'} value={value} min={props.min} />
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Above a refused form: what went wrong, each field's message linking to the field. Focused
 * on load (`autofocus`, no script), so a screen reader starts there.
 */
export function ErrorSummary(props: { errors?: FormErrors; labels: Record<string, string> }) {
  const errors = props.errors;
  if (!errors) return null;
  const fields = Object.entries(errors.fields);
  return (
    <div
      class="notice error"
      role="alert"
      tabindex={-1}
      autofocus
      aria-labelledby="error-summary-title"
      data-error-code={errors.code}
    >
      <h2 id="error-summary-title">
        {fields.length ? 'Please check the form' : 'Your message was not sent'}
      </h2>
      {errors.form.map((message) => (
        <p>{message}</p>
      ))}
      {fields.length > 0 && (
        <ul>
          {fields.map(([name, message]) => (
            <li>
              <a href={`#field-${name}`}>
                {props.labels[name] ?? name}: {message}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The honeypot: a field people neither see nor reach with Tab, that bots fill. A filled one is
 * answered like a real submission and dropped (forms/index.ts).
 */
export function Honeypot() {
  return (
    <div class="trap" aria-hidden="true">
      <label for="field-website">Leave this empty</label>
      <input id="field-website" name="website" type="text" tabindex={-1} autocomplete="off" />
    </div>
  );
}

/** A form posting to our own endpoint: plain HTML, validated by the server (`novalidate`). */
export function PostForm(props: { action: string; label: string; children: Child }) {
  return (
    <form method="post" action={props.action} novalidate aria-label={props.label}>
      {props.children}
    </form>
  );
}
