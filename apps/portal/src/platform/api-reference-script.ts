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
 * Scalar anchor whose tag belongs to a part), it keeps only that part's list of operations until Scalar has rendered
 * (Scalar alone takes ~2 s to start), shows the bar between parts, loads Scalar's bundle
 * (named by the script tag's `data-scalar`) and renders that part's document alone, found
 * beside the page's URL so the reference works under any prefix. `all`: the whole document.
 * An operation's anchor is looked up by its method and path among the index's links, so the
 * links of before the split (`#tag/sales/POST/api/v1/quotes`, no `module`) and of before the
 * tags per resource (`?module=sales#tag/sales/…`) land on it, under its tag of now
 * (`#tag/quotes/POST/api/v1/quotes`).
 */
export const REFERENCE_SCRIPT = `'use strict';
(function () {
  var configuration = ${JSON.stringify(CONFIGURATION)};
  var scalarSrc = document.currentScript.dataset.scalar;
  var titles = {};
  var partOfTag = {};
  var anchors = {};
  document.querySelectorAll('[data-document]').forEach(function (entry) {
    var part = entry.dataset.document;
    titles[part] = entry.querySelector('h2').textContent;
    entry.dataset.tags.split(' ').forEach(function (slug) { partOfTag[slug] = part; });
    // Every operation's anchor in its part, by method and path (the index links them all).
    entry.querySelectorAll('.operations a').forEach(function (link) {
      var anchor = decodeURI(link.hash.slice(1));
      anchors[anchor.replace(/^tag\\/[^/]+\\//, '')] = { part: part, anchor: anchor };
    });
  });
  titles.all = 'whole API';
  var url = new URL(window.location.href);
  var part = url.searchParams.get('module');
  // An operation's anchor as Scalar writes it, or as it did before the tags per resource
  // (\`#tag/sales/POST/api/v1/sales-orders\`, with or without \`module\`): its part, its anchor now.
  var operation = /^#(?:tag-group\\/[^/]+\\/)?tag\\/[^/]+\\/([A-Z]+\\/.*)$/.exec(url.hash);
  var known = operation && anchors[decodeURI(operation[1])];
  if (known && (!part || part === known.part || part === 'all')) {
    if (part !== 'all') part = known.part;
    url.hash = known.anchor;
  } else if (!part) {
    var tag = /^#(?:tag-group\\/[^/]+\\/)?tag\\/([^/]+)/.exec(url.hash);
    // A tag of now, or a module's own tag of before (\`#tag/sales\`: no section any more).
    if (tag) part = partOfTag[tag[1]] || (titles[tag[1]] ? tag[1] : null);
    else part = /^#webhook\\//.test(url.hash) ? 'platform' : null;
    if (tag && !partOfTag[tag[1]]) url.hash = '';
  }
  if (part) url.searchParams.set('module', part);
  if (url.href !== window.location.href) window.history.replaceState(null, '', url.href);
  if (!part || !titles[part]) return;

  // Until Scalar has rendered the part, its operations as the index lists them (links that
  // work at once). With an anchor, the list lies over the page (out of the layout, so Scalar's
  // own scroll to the anchor is not moved), its operation marked and scrolled to.
  var index = document.getElementById('index');
  var notice = document.getElementById('loading');
  var entry = document.querySelector('[data-document="' + part + '"]');
  var target = null;
  if (entry) {
    index.classList.add('part');
    entry.classList.add('current');
    entry.querySelector('details').open = true;
    if (url.hash) {
      index.classList.add('over');
      index.insertBefore(notice, index.firstChild);
      entry.querySelectorAll('.operations a').forEach(function (link) {
        if (!target && decodeURI(link.hash) === decodeURI(url.hash)) target = link;
      });
      if (target) target.setAttribute('aria-current', 'location');
    }
  } else index.hidden = true;
  var nav = document.getElementById('modules');
  nav.hidden = false;
  nav.querySelectorAll('a').forEach(function (link) {
    if (link.getAttribute('href') === 'docs?module=' + part) link.setAttribute('aria-current', 'page');
  });
  notice.textContent = 'Loading the ' + titles[part] + ' reference…';
  notice.hidden = false;
  document.title = titles[part] + ' · ERP business API reference';
  configuration.metaData.title = document.title;
  configuration.url = new URL(part === 'all' ? 'openapi.json' : 'openapi/' + part + '.json', document.baseURI).href;
  // The list over the page starts below the bar between parts, which stays in reach.
  if (index.classList.contains('over')) index.style.top = nav.getBoundingClientRect().bottom + 'px';
  if (target) target.scrollIntoView({ block: 'center' });
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
