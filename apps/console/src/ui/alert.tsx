import type { ApiError } from '@erp/sdk';
import type { ReactNode } from 'react';
import { describeError } from '../api/errors';

/** An error the user must read: announced at once (role=alert). */
export function ErrorBanner({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      <p>{describeError(error)}</p>
      <p className="alert-code">
        <code>{error.code}</code>
      </p>
    </div>
  );
}

/** A confirmation, announced politely (role=status). */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="alert alert-ok" role="status">
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}
