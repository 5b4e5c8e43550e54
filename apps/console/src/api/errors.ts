import type { ApiError } from '@erp/sdk';

interface Issue {
  location?: string;
  path?: string;
  message?: string;
}

/** The `requete_invalide` issues of a request body, by field path (`lines.0.quantity`). */
export function fieldErrors(error: ApiError | undefined): Record<string, string> {
  if (error?.code !== 'requete_invalide') return {};
  const issues = Array.isArray(error.params.issues) ? (error.params.issues as Issue[]) : [];
  const byPath: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.location && issue.location !== 'json' && issue.location !== 'body') continue;
    const key = issue.path ?? '';
    byPath[key] = byPath[key] ? `${byPath[key]}; ${issue.message}` : (issue.message ?? 'invalid');
  }
  return byPath;
}

/** One sentence for an error banner: the portal's message, and what the code means to a person. */
export function describeError(error: ApiError): string {
  switch (error.code) {
    case 'acces_refuse':
      // The portal's message says which rule refused (only a super-admin manages admins...).
      return error.message
        ? `You do not have the right to do this: ${error.message}`
        : `You do not have the right to do this${error.params.required ? ` (needs ${String(error.params.required)})` : ''}.`;
    case 'module_non_souscrit':
      return 'Your organisation has not subscribed to this module.';
    case 'erreur_reseau':
    case 'delai_depasse':
      return 'The portal cannot be reached. Check your connection and try again.';
    case 'limite_depassee':
      return 'Too many requests: wait a moment and try again.';
    default:
      return error.message;
  }
}
