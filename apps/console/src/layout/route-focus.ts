import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';

let navigations = 0;
let focused = 0;

/**
 * Counts client-side navigations (a new path, not a new query: filters keep the focus). A
 * layout effect, so it runs before the new page's own (passive) effects read the count.
 */
export function useNavigationCounter(): void {
  const [path] = useLocation();
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    navigations++;
  }, [path]);
}

/**
 * Moves the focus to a page's heading once after each navigation, so keyboard and screen
 * reader users land on the new content instead of staying on the link they followed. The
 * first page load keeps the browser's own start.
 */
export function useFocusAfterNavigation(heading: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (navigations > focused && heading.current) {
      focused = navigations;
      heading.current.focus();
    }
  });
}
