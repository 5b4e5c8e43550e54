import { ApiError } from '@erp/sdk';
import { useState } from 'react';
import { useMe } from '../api/auth';
import type { Outcome } from '../api/client';
import { fileNameOf, requestFile, saveFile } from '../api/files';
import { useLoad } from '../api/use-load';
import { canRead } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { ErrorBanner } from '../ui/alert';
import { EINVOICE_FORMATS, hasEInvoice, IMPORTED_KINDS, ISSUED_KINDS } from './einvoice';
import { EInvoiceRefusal } from './refusal';

type Row = Record<string, unknown>;

/**
 * A document's e-invoice on its page (SPEC §20): an issued invoice or credit note downloads in
 * each format; a supplier invoice or debit note imported from one keeps the original file.
 */
export function EInvoiceSection({ resource, record }: { resource: ResourceInfo; record: Row }) {
  const me = useMe();
  if (!canRead(me, 'accounting')) return null;
  const id = String(record.id);
  if (ISSUED_KINDS.has(resource.name))
    return hasEInvoice(record.status) ? (
      <Downloads resource={resource} id={id} number={String(record.number)} />
    ) : null;
  if (IMPORTED_KINDS.has(resource.name)) return <Original key={id} resource={resource} id={id} />;
  return null;
}

function Downloads({
  resource,
  id,
  number,
}: {
  resource: ResourceInfo;
  id: string;
  number: string;
}) {
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState<string>();

  const download = async (format: string, label: string) => {
    if (busy) return;
    setBusy(label);
    setError(undefined);
    setSaved(undefined);
    const answer = await requestFile(
      'GET',
      `/api/v1/${resource.path}/${encodeURIComponent(id)}/einvoice?format=${format}`,
    );
    try {
      if (answer.error) {
        setError(answer.error);
        return;
      }
      const blob = await answer.response.blob();
      const fallback = `${number}${format === 'facturx' ? '.pdf' : `-${format}.xml`}`;
      const name = fileNameOf(answer.response, fallback);
      saveFile(blob, name);
      setSaved(`${label} downloaded: ${name}.`);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section aria-labelledby="einvoice" className="einvoice">
      <h2 id="einvoice">Electronic invoice</h2>
      <p className="muted">
        The {resource.name === 'credit_note' ? 'credit note' : 'invoice'} in the EN 16931 formats:
        Factur-X is a readable PDF with the CII XML inside; UBL and CII are the XML alone.
      </p>
      <div className="row">
        {EINVOICE_FORMATS.map(({ format, label, hint }) => (
          <button
            key={format}
            type="button"
            className="button"
            title={hint}
            // Not `disabled`: the focus stays on the button while the file is prepared.
            aria-disabled={busy ? true : undefined}
            onClick={() => download(format, label)}
          >
            Download {label}
          </button>
        ))}
      </div>
      <p className="muted small" role="status">
        {busy ? `Preparing ${busy}…` : (saved ?? '')}
      </p>
      <EInvoiceRefusal error={error} />
    </section>
  );
}

interface OriginalFile {
  blob: Blob;
  name: string;
}

/** The file a draft was imported from; a document typed in has none (404): nothing shown. */
function Original({ resource, id }: { resource: ResourceInfo; id: string }) {
  const file = useLoad(
    async (signal): Promise<Outcome<OriginalFile>> => {
      const answer = await requestFile(
        'GET',
        `/api/v1/${resource.path}/${encodeURIComponent(id)}/einvoice`,
        { signal },
      );
      if (answer.error) return { error: answer.error };
      try {
        const blob = await answer.response.blob();
        return { data: { blob, name: fileNameOf(answer.response, `${id}-einvoice`) } };
      } catch (cause) {
        return { error: new ApiError('erreur_reseau', String(cause)) };
      }
    },
    [resource.path, id],
  );
  if (file.error?.code === 'introuvable' || file.error?.code === 'requete_annulee') return null;
  if (!file.data && !file.error) return null;
  return (
    <section aria-labelledby="einvoice-original" className="einvoice">
      <h2 id="einvoice-original">Electronic invoice</h2>
      <ErrorBanner error={file.error} />
      {file.data ? (
        <>
          <p className="muted">
            Imported from the supplier’s e-invoice <code>{file.data.name}</code> (
            {describeFile(file.data.blob)}), kept as received.
          </p>
          <button
            type="button"
            className="button"
            onClick={() => saveFile(file.data!.blob, file.data!.name)}
          >
            Download the original e-invoice
          </button>
        </>
      ) : null}
    </section>
  );
}

function describeFile(blob: Blob): string {
  const kind = blob.type.includes('pdf') ? 'PDF' : 'XML';
  const size =
    blob.size < 1024 ? `${blob.size} bytes` : `${Math.max(1, Math.round(blob.size / 1024))} kB`;
  return `${kind}, ${size}`;
}
