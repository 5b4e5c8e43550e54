import type { Child } from 'hono/jsx';
import { FAVICON_URL, STYLESHEET_URL } from './assets';

/** The product's name on every page, in one place. */
export const SITE_NAME = 'ERP Platform';

/** What each page tells search engines and link previews. */
export interface PageMeta {
  /** The page's own title; the site's name is appended. */
  title: string;
  /** One or two sentences: the meta description and the preview's text. */
  description: string;
  /** The page's path (`/pricing`): canonical URL, Open Graph URL, the current nav entry. */
  path: string;
  /** The site's origin as the visitor reached it (absolute URLs for link previews). */
  origin: string;
  /** Pages that hold something personal (onboarding) stay out of search engines. */
  noindex?: boolean;
}

const NAV = [
  { path: '/', label: 'Product' },
  { path: '/pricing', label: 'Pricing' },
  { path: '/demo', label: 'Book a demo' },
  { path: '/contact', label: 'Contact' },
] as const;

/**
 * The page around every marketing page: head (title, description, Open Graph and Twitter
 * cards, canonical URL, the hashed stylesheet), a skip link, header navigation, `<main>`,
 * footer. No script anywhere: the CSP would refuse an inline one, and none is needed.
 */
export function Layout(props: PageMeta & { children: Child }) {
  const title =
    props.path === '/' ? `${SITE_NAME}: ${props.title}` : `${props.title} · ${SITE_NAME}`;
  const url = `${props.origin}${props.path}`;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={props.description} />
        {props.noindex ? (
          <meta name="robots" content="noindex, nofollow" />
        ) : (
          <link rel="canonical" href={url} />
        )}
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={SITE_NAME} />
        <meta property="og:title" content={props.title} />
        <meta property="og:description" content={props.description} />
        <meta property="og:url" content={url} />
        <meta property="og:locale" content="en_GB" />
        <meta name="twitter:card" content="summary" />
        <meta name="theme-color" content="#1d4ed8" />
        <link rel="icon" href={FAVICON_URL} type="image/svg+xml" />
        <link rel="stylesheet" href={STYLESHEET_URL} />
      </head>
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="site-header">
          <div class="wrap">
            <a class="brand" href="/">
              <span class="brand-mark" aria-hidden="true" />
              {SITE_NAME}
            </a>
            <nav class="site-nav" aria-label="Main">
              <ul>
                {NAV.map((entry) => (
                  <li>
                    <a
                      href={entry.path}
                      aria-current={entry.path === props.path ? 'page' : undefined}
                    >
                      {entry.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </header>
        <main id="content">{props.children}</main>
        <footer class="site-footer">
          <div class="wrap">
            <p>
              © {new Date().getFullYear()} {SITE_NAME}. Prices exclude VAT.
            </p>
            <nav aria-label="Footer">
              <ul>
                <li>
                  <a href="/pricing">Pricing</a>
                </li>
                <li>
                  <a href="/demo">Book a demo</a>
                </li>
                <li>
                  <a href="/contact">Contact</a>
                </li>
                <li>
                  <a href="/onboarding">Claim your account</a>
                </li>
              </ul>
            </nav>
          </div>
        </footer>
      </body>
    </html>
  );
}
