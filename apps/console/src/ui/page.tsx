import { type ReactNode, useEffect, useRef } from 'react';
import { useFocusAfterNavigation } from '../layout/route-focus';

/**
 * A screen: its `<h1>` (focused by the shell after each navigation, so keyboard and screen
 * reader users start at the new content) and the document title.
 */
export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusAfterNavigation(heading);
  useEffect(() => {
    document.title = `${title} · ERP console`;
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1 id="page-title" tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}
