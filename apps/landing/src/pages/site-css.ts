/**
 * The marketing pages' one stylesheet. A TypeScript module rather than a `.css` file: the app
 * is one bundle (tsup) run from `dist/`, and a module travels inside it with nothing to copy
 * into the image; `stylesheet.ts` serves it under a URL naming its hash.
 *
 * Restrained on purpose: system fonts, one accent colour, contrast ≥ 4.5:1 everywhere, a
 * focus ring nobody can miss, one column below 48rem.
 */
export const SITE_CSS = `
:root {
  --ink: #14213d; --muted: #4a5568; --line: #d9dee7; --paper: #ffffff; --wash: #f5f7fb;
  --accent: #1d4ed8; --accent-ink: #ffffff; --accent-dark: #1e3a8a; --ok: #146c43; --error: #b42318;
  --radius: 10px; --focus: 0 0 0 3px #ffffff, 0 0 0 6px #1d4ed8;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; color: var(--ink); background: var(--paper);
  min-height: 100vh; display: flex; flex-direction: column;
  font: 1.0625rem/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 0.2em; }
a:hover { color: var(--accent-dark); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; border-radius: 4px; }
h1, h2, h3 { line-height: 1.2; margin: 0 0 0.5em; letter-spacing: -0.01em; }
h1 { font-size: clamp(2rem, 5vw, 3.1rem); }
h2 { font-size: clamp(1.5rem, 3vw, 2rem); }
h3 { font-size: 1.15rem; }
p { margin: 0 0 1em; }
.wrap { width: 100%; max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
.narrow { max-width: 44rem; }

main { flex: 1 0 auto; }
.skip { position: absolute; left: 1rem; top: -4rem; padding: 0.5rem 1rem; background: var(--ink); color: #fff; z-index: 10; }
.skip:focus { top: 1rem; }

.site-header { border-bottom: 1px solid var(--line); background: var(--paper); }
.site-header .wrap { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; padding-top: 0.9rem; padding-bottom: 0.9rem; }
.brand { display: inline-flex; align-items: center; gap: 0.55rem; font-weight: 700; font-size: 1.15rem; color: var(--ink); text-decoration: none; }
.brand-mark { width: 1.6rem; height: 1.6rem; border-radius: 6px; background: linear-gradient(135deg, var(--accent), #0e7490); }
.site-nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem clamp(0.9rem, 2vw, 1.25rem); list-style: none; margin: 0; padding: 0; }
.site-nav a { color: var(--ink); text-decoration: none; font-weight: 500; padding: 0.25rem 0; }
.site-nav a:hover, .site-nav a[aria-current="page"] { color: var(--accent); text-decoration: underline; }

.hero { padding: 4.5rem 0 3.5rem; background: linear-gradient(180deg, var(--wash), var(--paper)); }
.hero.compact { padding: 3.5rem 0 0.5rem; }
.hero-grid { display: grid; gap: 3rem; grid-template-columns: minmax(0, 1.15fr) minmax(0, 0.85fr); align-items: center; }
.sample { border: 1px solid var(--line); border-radius: 14px; background: var(--paper); box-shadow: 0 18px 40px rgba(20, 33, 61, 0.10); padding: 1.25rem 1.4rem; font-size: 0.95rem; }
.sample-head { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; border-bottom: 1px solid var(--line); padding-bottom: 0.75rem; margin-bottom: 0.5rem; }
.sample-head b { font-size: 1.05rem; }
.sample-head span, .sample-meta { color: var(--muted); }
.sample-line { display: flex; justify-content: space-between; gap: 1rem; padding: 0.45rem 0; border-bottom: 1px dashed var(--line); }
.sample-total { display: flex; justify-content: space-between; font-weight: 700; padding-top: 0.75rem; }
.steps { display: flex; flex-wrap: wrap; gap: 0.4rem; list-style: none; padding: 0; margin: 1rem 0 0; }
.steps li { border-radius: 999px; padding: 0.15rem 0.7rem; font-size: 0.85rem; font-weight: 600; background: #e7edfb; color: var(--accent-dark); }
.steps li.done { background: #e3f3ea; color: var(--ok); }
.hero p.lede { font-size: 1.2rem; color: var(--muted); max-width: 40rem; }
.eyebrow { text-transform: uppercase; letter-spacing: 0.08em; font-size: 0.8rem; font-weight: 700; color: var(--accent); margin-bottom: 0.75rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.5rem; }
.button {
  display: inline-block; padding: 0.7rem 1.2rem; border-radius: var(--radius); border: 2px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); font: inherit; font-weight: 600; text-decoration: none; cursor: pointer;
}
.button:hover { background: var(--accent-dark); border-color: var(--accent-dark); color: var(--accent-ink); }
.button.secondary { background: transparent; color: var(--accent); }
.button.secondary:hover { background: var(--wash); color: var(--accent-dark); }

section { padding: 3rem 0; }
section.alt { background: var(--wash); }
.section-intro { color: var(--muted); max-width: 42rem; margin-bottom: 2rem; }
.grid { list-style: none; padding: 0; margin: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(12.5rem, 1fr)); }
.card { border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; background: var(--paper); }
.card h3 { margin-bottom: 0.35rem; }
.card p { color: var(--muted); margin: 0; font-size: 0.98rem; }
.points { display: grid; gap: 1.25rem 2rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); padding: 0; margin: 0; list-style: none; }
.points li { padding-left: 1.1rem; border-left: 3px solid var(--accent); }
.points strong { display: block; margin-bottom: 0.25rem; }
.cta { text-align: center; }
.cta .actions { justify-content: center; }

.plans { list-style: none; padding: 0; margin: 0; display: grid; gap: 1.25rem; grid-template-columns: repeat(auto-fit, minmax(16.5rem, 1fr)); align-items: stretch; }
.plan { display: flex; flex-direction: column; border: 1px solid var(--line); border-radius: var(--radius); padding: 1.5rem; background: var(--paper); }
.price { font-size: 2.2rem; font-weight: 700; margin: 0.4rem 0 0; }
.price span { font-size: 1rem; font-weight: 500; color: var(--muted); }
.yearly { color: var(--muted); font-size: 0.95rem; margin-bottom: 0.5rem; }
.users { font-weight: 600; margin-bottom: 0.5rem; }
.plan-summary { min-height: 3.2em; }
.plan ul { list-style: none; padding: 0; margin: 0.25rem 0 1.5rem; }
.plan ul li { padding-left: 1.5rem; position: relative; }
.plan ul li::before { content: "✓"; position: absolute; left: 0; color: var(--ok); font-weight: 700; }
.includes { text-transform: uppercase; letter-spacing: 0.06em; font-size: 0.8rem; color: var(--muted); margin: 0.75rem 0 0.25rem; }
.plan .button { margin-top: auto; text-align: center; }

.notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); background: var(--wash); padding: 1rem 1.25rem; border-radius: var(--radius); }
.notice.error { border-left-color: var(--error); }
.notice.ok { border-left-color: var(--ok); }
.notice p:last-child, .notice ul:last-child { margin-bottom: 0; }
.notice h2 { font-size: 1.25rem; }
.notice:focus-visible { outline-color: var(--error); }

form { display: grid; gap: 1.1rem; }
.field { display: grid; gap: 0.3rem; align-content: start; }
.field label, fieldset legend { font-weight: 600; }
.hint { color: var(--muted); font-size: 0.92rem; font-weight: 400; }
input[type="text"], input[type="email"], input[type="tel"], input[type="number"], input[type="date"], textarea {
  width: 100%; font: inherit; color: var(--ink); background: var(--paper); border: 1px solid #8a94a6; border-radius: 8px; padding: 0.6rem 0.75rem;
}
textarea { min-height: 8rem; resize: vertical; }
input:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; border-color: var(--accent); }
input[aria-invalid="true"], textarea[aria-invalid="true"] { border: 2px solid var(--error); }
.field-error { color: var(--error); font-weight: 600; font-size: 0.95rem; margin: 0; }
.field-error::before { content: "⚠ "; }
fieldset { border: 0; padding: 0; margin: 0; min-width: 0; }
legend { padding: 0; margin-bottom: 0.3rem; }
.checks { display: grid; gap: 0.35rem 1rem; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); }
.checks label { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; }
input[type="checkbox"] { width: 1.1rem; height: 1.1rem; accent-color: var(--accent); }
.two { display: grid; gap: 1.1rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); align-items: start; }
.trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }

.secret { display: grid; gap: 0.6rem 1.5rem; grid-template-columns: max-content 1fr; margin: 1.5rem 0; padding: 1.25rem 1.5rem; border: 1px solid var(--line); border-radius: var(--radius); background: var(--wash); }
.secret dt { font-weight: 600; }
.secret dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.secret dd.password { font-size: 1.2rem; font-weight: 700; letter-spacing: 0.03em; }

.site-footer { border-top: 1px solid var(--line); padding: 2rem 0; color: var(--muted); font-size: 0.95rem; }
.site-footer .wrap { display: flex; flex-wrap: wrap; gap: 1rem 2rem; justify-content: space-between; }
.site-footer ul { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; list-style: none; margin: 0; padding: 0; }

@media (max-width: 56rem) {
  .hero-grid { grid-template-columns: 1fr; }
  .sample { display: none; }
}
@media (max-width: 30rem) {
  .site-nav ul { gap: 0.25rem 0.8rem; }
  .site-nav a { font-size: 0.95rem; }
  .secret dd.password { font-size: 1.05rem; }
  .hero { padding: 2.5rem 0 2rem; }
  section { padding: 2.25rem 0; }
  .secret { grid-template-columns: 1fr; }
  .secret dd { margin-bottom: 0.5rem; }
}
@media (prefers-reduced-motion: no-preference) {
  a, .button { transition: color 0.15s, background-color 0.15s, border-color 0.15s; }
}
`;
