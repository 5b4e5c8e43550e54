import {
  ApiError,
  EXPORT_MEDIA_TYPES,
  type ExportFormat,
  type Resource,
  type ResourceLookup,
} from '@erp/contract';
import type { Logger } from '@erp/logger';
import { type CopyStreamOptions, streamCopy } from './copy-stream';
import { takeExportSlot } from './export-slots';
import { mapReadError } from './pg-errors';
import { csvHeader, exportSql, parseListQuery, parseReadShape, type ReadAccess } from './read';
import type { TenantDatabase } from './tenant-database';

export interface ExportRequest {
  tenantId: string;
  /** The raw query: `format`, `select`, the list's filters and `order`. */
  query: Record<string, string[]>;
  access: ReadAccess;
  method: string;
  logger: Logger;
  requestId: string;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: `${EXPORT_MEDIA_TYPES.ndjson}; charset=utf-8`,
  csv: `${EXPORT_MEDIA_TYPES.csv}; charset=utf-8; header=present`,
};

/**
 * `GET /{path}/export` (SPEC §12): every row the list's filters select, in its order, streamed
 * from PostgreSQL as it produces them (`COPY … TO STDOUT`, see copy-stream.ts). Everything that
 * can be refused is refused before the first byte: the parameters, the shape, and the
 * statement itself (started, and its first bytes arrived, before the response starts).
 */
export async function exportRecords(
  deps: {
    tenantDb: TenantDatabase;
    /** The export's limits (SPEC §16): its whole time, and how long a reader may take nothing. */
    env?: { EXPORT_TIME_BUDGET_MS: number; EXPORT_STALL_MS: number };
  },
  registry: ResourceLookup,
  resource: Resource,
  request: ExportRequest,
  options: CopyStreamOptions = {},
): Promise<{ body: ReadableStream<Uint8Array> | null; headers: Record<string, string> }> {
  const { format: formats = [], page_size, cursor, ...rest } = request.query;
  const format = formats[0] as ExportFormat; // one of the enum: the route's validation saw to it
  if (formats.length > 1) throw notForExport('format', 'Give format once.');
  if (page_size || cursor)
    throw notForExport(page_size ? 'page_size' : 'cursor', 'The export has no pages.');
  const query = parseListQuery(resource, rest);
  const shape = parseReadShape(resource, registry, rest, request.access, { embed: false });
  const { text, params } = exportSql(resource, request.tenantId, query, shape, format);

  const transaction = await deps.tenantDb.readOnly(request.tenantId);
  try {
    await takeExportSlot(transaction.client, request.tenantId);
  } catch (error) {
    await transaction.end();
    throw error;
  }
  const body = await streamCopy(
    transaction,
    { text, values: params.values },
    {
      head: format === 'csv' ? `${csvHeader(shape)}\r\n` : '',
      separator: format === 'csv' ? '\r\n' : '\n',
    },
    {
      ...(deps.env
        ? { budgetMs: deps.env.EXPORT_TIME_BUDGET_MS, stallMs: deps.env.EXPORT_STALL_MS }
        : {}),
      ...options,
      onError: (error) =>
        request.logger.error('export cut short', {
          request_id: request.requestId,
          resource: resource.name,
          error: error instanceof Error ? error.message : String(error),
        }),
    },
  ).catch((error) => mapReadError(error, params));
  // HEAD: the same checks and headers, and the connection back at once.
  if (request.method === 'HEAD') await body.cancel();
  return {
    body: request.method === 'HEAD' ? null : body,
    headers: {
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="${resource.path}.${format}"`,
      'Cache-Control': 'no-store',
    },
  };
}

function notForExport(parameter: string, message: string): ApiError {
  return new ApiError('requete_invalide', 'The request query is invalid.', {
    issues: [{ location: 'query', path: parameter, code: 'not_allowed', message }],
  });
}
