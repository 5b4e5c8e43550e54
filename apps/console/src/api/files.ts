/**
 * Files to and from the portal (SPEC §20's e-invoices): raw bytes, which the sdk client (JSON in,
 * text out) cannot carry. The same session and tenant as every call: the access token from the
 * session's closure (a plain link could not send it), renewed once on `jeton_invalide`.
 */
import { ApiError, type ErrorCode } from '@erp/sdk';
import { session, tenant } from './client';

export type FileOutcome =
  | { response: Response; error?: undefined }
  | { response?: Response; error: ApiError };

interface FileInit {
  /** The file sent as the body (an import). */
  body?: Blob;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
}

/** The portal's `{code, message, params}`, or a `reponse_invalide` naming the status. */
function decode(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown; params?: unknown };
    if (typeof body.code === 'string' && typeof body.message === 'string')
      return new ApiError(
        body.code as ErrorCode,
        body.message,
        body.params && typeof body.params === 'object'
          ? (body.params as Record<string, unknown>)
          : {},
        status,
      );
  } catch {}
  return new ApiError('reponse_invalide', `HTTP ${status} without an error object.`, {}, status);
}

/** One request whose answer is read by the caller (`response.blob()`, `.json()`), or its error. */
export async function requestFile(
  method: 'GET' | 'POST',
  path: string,
  init: FileInit = {},
): Promise<FileOutcome> {
  for (let attempt = 0; ; attempt++) {
    const token = await session.accessToken();
    const headers: Record<string, string> = { accept: init.accept ?? '*/*' };
    if (token) headers.authorization = `Bearer ${token}`;
    const chosen = tenant();
    if (chosen) headers['x-tenant-id'] = chosen;
    if (init.contentType) headers['content-type'] = init.contentType;
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: init.body ?? null,
        credentials: 'same-origin',
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (cause) {
      const aborted = init.signal?.aborted;
      return {
        error: new ApiError(
          aborted ? 'requete_annulee' : 'erreur_reseau',
          cause instanceof Error ? cause.message : String(cause),
        ),
      };
    }
    if (response.ok) return { response };
    const error = decode(response.status, await response.text());
    // An expired access token: renewed once, then the same request again.
    if (error.code === 'jeton_invalide' && attempt === 0 && (await session.refresh())) continue;
    return { error, response };
  }
}

/** The file name the portal gives (`Content-Disposition`), else `fallback`. */
export function fileNameOf(response: Response | undefined, fallback: string): string {
  const disposition = response?.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallback;
}

/**
 * Saves `blob` as `name` through a Blob URL and an `<a download>`; the URL is let go a minute
 * later (long enough for the browser to have read it).
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
