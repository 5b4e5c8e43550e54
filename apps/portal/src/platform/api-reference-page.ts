import type { IndexedDocument, IndexedOperation } from './api-reference-documents';

/** What the page's script needs: its own file and Scalar's, by their content-hashed names. */
export interface PageScripts {
  reference: string;
  scalar: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
/** Markdown's code spans as <code>, the rest escaped (tag descriptions use only those). */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);

/** Scalar's slug of a tag, as in its anchors (`Settings: webhooks` → `settings-webhooks`). */
export function tagSlug(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The link that opens the reference on an operation: its part, and Scalar's anchor for it. */
export function operationLink(document: string, op: IndexedOperation): string {
  return `docs?module=${document}#tag/${tagSlug(op.tag)}/${op.method.toUpperCase()}${op.path}`;
}

function documentEntry(doc: IndexedDocument): string {
  const count = `${doc.operations.length} operations${doc.webhooks ? `, ${doc.webhooks} webhooks` : ''}`;
  const operations = doc.operations
    .map(
      (op) =>
        `<li><a href="${escapeHtml(operationLink(doc.name, op))}"><span class="method">${op.method.toUpperCase()}</span> <code>${escapeHtml(op.path)}</code></a> ${escapeHtml(op.summary)}</li>`,
    )
    .join('\n');
  return `<li data-document="${doc.name}" data-tags="${doc.tags.map((t) => tagSlug(t.name)).join(' ')}">
<h2><a href="docs?module=${doc.name}">${escapeHtml(doc.title)}</a></h2>
<p>${prose(doc.description)}</p>
<p class="meta">${count} · <a href="openapi/${doc.name}.json">${doc.name}.json</a></p>
<details><summary>Every operation of ${escapeHtml(doc.title)}</summary>
<ul class="operations">
${operations}
</ul>
</details>
</li>`;
}

const STYLE = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}
#index{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 3rem}
#modules{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:.5rem 1.25rem;border-bottom:1px solid #d0d0d7;font-size:.9rem}
#modules[hidden],#index[hidden],#loading[hidden]{display:none}
#index.part>h1,#index.part>p:not(#loading),#index.part li[data-document]:not(.current){display:none}
a{color:#1a4fbf}a:focus-visible,summary:focus-visible{outline:3px solid #1a4fbf;outline-offset:2px}
[aria-current=page]{font-weight:700}
.documents{list-style:none;padding:0}.documents>li{border-top:1px solid #d0d0d7;padding:.75rem 0}
h2{margin:.25rem 0;font-size:1.25rem}.meta{color:#4a4a55;font-size:.9rem}
.operations{padding-left:1rem;font-size:.9rem}.method{display:inline-block;min-width:4em;font-weight:600}
code{font-family:ui-monospace,monospace;word-break:break-all}
#loading{padding:1rem 1.25rem}
#index.over{position:fixed;inset:0;z-index:10;overflow:auto;background:#fff;max-width:none;padding:0 max(1.25rem,calc(50% - 30rem)) 3rem}
#index.over #loading{position:sticky;top:0;margin:0;padding:.75rem 0;background:#fff;border-bottom:1px solid #d0d0d7}
.operations a[aria-current=location]{font-weight:700;background:#fff3bf;outline:2px solid #b08800}
`;

/**
 * The reference's one page: the index of the parts (platform and modules, every operation a
 * link), a bar to move between parts, and the place Scalar renders a part in. The page's script
 * chooses: no `module` in the address, the index; one, Scalar on that part alone.
 */
export function referencePage(index: IndexedDocument[], scripts: PageScripts): string {
  const total = index.reduce((n, d) => n + d.operations.length, 0);
  const nav = index.map((d) => `<a href="docs?module=${d.name}">${escapeHtml(d.title)}</a>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ERP business API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<nav id="modules" aria-label="Parts of the API" hidden><a href="docs">All parts</a>
${nav.join('\n')}
<a href="docs?module=all">Everything</a></nav>
<main id="index">
<h1>ERP business API reference</h1>
<p>${total} operations in ${index.length} parts: the platform (access, settings, webhooks, the system) and one per module. Open a part to read it, or an operation from its list. Each part is an OpenAPI 3.1 document of its own; the whole is <a href="openapi.json">openapi.json</a>, also readable <a href="docs?module=all">in one page</a> (slow to open: every module at once).</p>
<ul class="documents">
${index.map(documentEntry).join('\n')}
</ul>
</main>
<p id="loading" role="status" hidden>Loading the reference…</p>
<noscript><p>The reference needs JavaScript; each part above is also a document: <a href="openapi.json">openapi.json</a>.</p></noscript>
<div id="reference"></div>
<script src="${scripts.reference}" data-scalar="${scripts.scalar}"></script>
</body>
</html>
`;
}
