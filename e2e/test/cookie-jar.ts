/**
 * What a browser does for the console's fetches that Node's fetch does not: keep the cookies the
 * portal sets (by name and path) and send them back, and send the page's `Origin` on every
 * request but a GET or HEAD. Test-only: in the browser, `cookieSession` relies on the real thing.
 */
export interface CookieJar {
  fetch: typeof fetch;
  /** The current value of a cookie, if the jar holds it. */
  get(name: string): string | undefined;
}

/** A jar for pages served at `origin`. */
export function cookieJar(origin: string): CookieJar {
  const cookies = new Map<string, { value: string; path: string }>();
  return {
    get: (name) => cookies.get(name)?.value,
    async fetch(input, init = {}) {
      const url = new URL(input instanceof Request ? input.url : input);
      const headers = new Headers(init.headers);
      const method = (init.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') headers.set('origin', origin);
      const sent = [...cookies]
        .filter(([, c]) => url.pathname === c.path || url.pathname.startsWith(`${c.path}/`))
        .map(([name, c]) => `${name}=${c.value}`);
      if (sent.length) headers.set('cookie', sent.join('; '));
      const response = await fetch(url, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
        const [name = '', value = ''] = pair.split('=');
        const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
        const gone = attributes.some((a) => /^max-age=0$/i.test(a)) || value === '';
        if (gone) cookies.delete(name);
        else cookies.set(name, { value, path });
      }
      return response;
    },
  };
}
