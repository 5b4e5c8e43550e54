/**
 * What the renderer is told. Everything that would reach another host is off: the default
 * fonts (a font CDN), telemetry, the AI agent (its registry lives behind a proxy), the
 * developer toolbar, and "Generate MCP" (Scalar shows it on localhost unless told otherwise:
 * it sends the document to Scalar's dashboard). The "try it" client stays: it calls this same
 * origin.
 */
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  metaData: { title: 'ERP business API reference' },
};

/**
 * The page's own script (a file, since the CSP admits no inline script). Without a part in the
 * address the index stays and Scalar is not even downloaded. With one (`?module=sales`, or a
 * Scalar anchor whose tag belongs to a part: `#tag/sales/POST/api/v1/quotes`, the links of
 * before the split), it keeps only that part's list of operations until Scalar has rendered
 * (Scalar alone takes ~2 s to start), shows the bar between parts, loads Scalar's bundle
 * (named by the script tag's `data-scalar`) and renders that part's document alone, found
 * beside the page's URL so the reference works under any prefix. `all`: the whole document.
 */
export const REFERENCE_SCRIPT = `'use strict';
(function () {
  var configuration = ${JSON.stringify(CONFIGURATION)};
  var scalarSrc = document.currentScript.dataset.scalar;
  var titles = {};
  var partOfTag = {};
  document.querySelectorAll('[data-document]').forEach(function (entry) {
    var part = entry.dataset.document;
    titles[part] = entry.querySelector('h2').textContent;
    entry.dataset.tags.split(' ').forEach(function (slug) { partOfTag[slug] = part; });
  });
  titles.all = 'whole API';
  var url = new URL(window.location.href);
  var part = url.searchParams.get('module');
  if (!part) {
    var tag = /^#(?:tag-group\\/[^/]+\\/)?tag\\/([^/]+)/.exec(url.hash);
    part = tag ? partOfTag[tag[1]] : /^#webhook\\//.test(url.hash) ? 'platform' : null;
    if (part) {
      url.searchParams.set('module', part);
      window.history.replaceState(null, '', url.href);
    }
  }
  if (!part || !titles[part]) return;

  // Until Scalar has rendered the part, its operations as the index lists them (links that
  // work at once); with an anchor, Scalar's scroll to it must not be moved, so nothing.
  var index = document.getElementById('index');
  var entry = document.querySelector('[data-document="' + part + '"]');
  if (entry && !url.hash) {
    index.classList.add('part');
    entry.classList.add('current');
    entry.querySelector('details').open = true;
  } else index.hidden = true;
  var nav = document.getElementById('modules');
  nav.hidden = false;
  nav.querySelectorAll('a').forEach(function (link) {
    if (link.getAttribute('href') === 'docs?module=' + part) link.setAttribute('aria-current', 'page');
  });
  var notice = document.getElementById('loading');
  notice.textContent = 'Loading the ' + titles[part] + ' reference…';
  notice.hidden = false;
  document.title = titles[part] + ' · ERP business API reference';
  configuration.metaData.title = document.title;
  configuration.url = new URL(part === 'all' ? 'openapi.json' : 'openapi/' + part + '.json', document.baseURI).href;
  configuration.onLoaded = function () {
    notice.remove();
    index.hidden = true;
  };
  var scalar = document.createElement('script');
  scalar.src = scalarSrc;
  scalar.onload = function () { window.Scalar.createApiReference('#reference', configuration); };
  document.body.appendChild(scalar);
})();
`;
