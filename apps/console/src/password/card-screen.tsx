import type { ReactNode } from 'react';
import { Page } from '../ui/page';

/** A screen of someone not logged in: the login page's card, a title, the content. */
export function CardScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="login">
      <main id="main" className="login-card">
        <p className="brand">ERP console</p>
        <Page title={title}>{children}</Page>
      </main>
    </div>
  );
}
