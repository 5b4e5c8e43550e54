import type { ApiError } from '@erp/contract';

/** What the visitor typed, as the form posted it (a repeated name gives an array). */
export type FormValues = Record<string, string | string[] | undefined>;

/** A refused submission as a form shows it: one message per field, the rest above the form. */
export interface FormErrors {
  /** The ApiError's code (`requete_invalide`, `limite_depassee`...): the same one JSON clients get. */
  code: string;
  fields: Record<string, string>;
  /** Messages that belong to no field (throttling, an unknown field, an unreadable body). */
  form: string[];
}

interface Issue {
  path?: string;
  code?: string;
  message?: string;
}

// Written for people, per field; the API's `params.issues` keep zod's wording for programs.
const FIELD_MESSAGES: Record<string, string> = {
  email: 'Enter an e-mail address, like name@example.com.',
  phone: 'Use digits, spaces and + ( ) . - only.',
  team_size: 'Enter a whole number of people, 1 or more.',
  modules_wanted: 'Choose among the modules listed.',
  preferred_date: 'Enter a date, like 2027-03-15.',
};

/** The messages a form shows for an ApiError its submission got. */
export function formErrors(error: ApiError): FormErrors {
  const result: FormErrors = { code: error.code, fields: {}, form: [] };
  if (error.code !== 'requete_invalide' || !Array.isArray(error.params.issues)) {
    result.form.push(formMessage(error));
    return result;
  }
  for (const issue of error.params.issues as Issue[]) {
    const field = issue.path?.split('.')[0] ?? '';
    if (!field) {
      result.form.push(
        issue.code === 'unrecognized_keys'
          ? 'The form sent a field it does not have. Reload the page and try again.'
          : 'The form could not be read. Reload the page and try again.',
      );
      continue;
    }
    result.fields[field] ??= fieldMessage(field, issue);
  }
  return result;
}

function fieldMessage(field: string, issue: Issue): string {
  if (issue.code === 'invalid_type' && /undefined/.test(issue.message ?? ''))
    return 'Please fill this in.';
  if (issue.code === 'too_small' && /string/.test(issue.message ?? ''))
    return 'Please fill this in.';
  if (issue.code === 'too_big') {
    const limit = /(\d+)/.exec(issue.message ?? '')?.[1];
    return limit ? `This is too long: ${limit} characters at most.` : 'This is too long.';
  }
  return FIELD_MESSAGES[field] ?? issue.message ?? 'Check this field.';
}

function formMessage(error: ApiError): string {
  if (error.code === 'limite_depassee') {
    const minutes = Math.max(1, Math.ceil(Number(error.params.retry_after ?? 60) / 60));
    return `Too many attempts from your address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  if (error.code === 'charge_trop_volumineuse') return 'The message is too long to be sent.';
  return 'The form could not be sent. Reload the page and try again.';
}
