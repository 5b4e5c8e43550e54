import type { ReactNode } from 'react';

/**
 * The frame of a table that may be wider than the page: it scrolls sideways inside (never the
 * page), and takes the keyboard focus, named by `label`, so arrow keys scroll it too.
 */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
    <section className="table-wrap" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
