import { useEffect, useState } from 'react';

/**
 * The `?token=` of a mailed link, read once; then the address bar forgets it (replaceState),
 * so the token is not left in the history, a bookmark, a screenshot of the address or a
 * `Referer`. A reload of the page then asks for the link again, which is the point.
 */
export function useLinkToken(): string | null {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has('token')) return;
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, []);
  return token;
}
