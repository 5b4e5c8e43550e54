import type { RefObject } from 'react';
import { Field } from '../ui/field';

/** Whether the two password fields of a form say the same thing. */
export function repeatedPassword(form: FormData): { password: string; same: boolean } {
  const password = String(form.get('password') ?? '');
  return { password, same: password === String(form.get('repeat') ?? '') };
}

/** A new password, typed twice: the portal's error on the first, a mismatch on the second. */
export function NewPasswordFields({
  error,
  mismatch,
  passwordRef,
  repeatRef,
}: {
  error?: string | undefined;
  mismatch?: string | undefined;
  passwordRef: RefObject<HTMLInputElement | null>;
  repeatRef: RefObject<HTMLInputElement | null>;
}) {
  return (
    <>
      <Field
        label="New password"
        required
        error={error}
        hint="At least 12 characters. A sentence you will remember is a good one."
      >
        {(props) => (
          <input
            {...props}
            ref={passwordRef}
            name="password"
            type="password"
            autoComplete="new-password"
            required
          />
        )}
      </Field>
      <Field label="New password, again" required error={mismatch}>
        {(props) => (
          <input
            {...props}
            ref={repeatRef}
            name="repeat"
            type="password"
            autoComplete="new-password"
            required
          />
        )}
      </Field>
    </>
  );
}
