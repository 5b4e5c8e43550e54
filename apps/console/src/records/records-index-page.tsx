import { useState } from 'react';
import { Link } from 'wouter';
import { useMe } from '../api/auth';
import { Field } from '../ui/field';
import { humanize } from '../ui/format';
import { Page } from '../ui/page';
import { canRead, resourceTitle, useCatalogue } from './catalogue';

/** `/records`: every resource the caller may read, by module, with a quick finder. */
export function RecordsIndexPage() {
  const me = useMe();
  const catalogue = useCatalogue();
  const [query, setQuery] = useState('');
  const bought = new Set(me.tenant?.modules ?? []);
  const needle = query.trim().toLowerCase();
  const modules = catalogue.modules
    .filter((m) => bought.has(m as never) && canRead(me, m))
    .map((module) => ({
      module,
      resources: catalogue.resources.filter(
        (r) =>
          r.module === module &&
          (!needle ||
            r.path.includes(needle.replace(/\s+/g, '-')) ||
            r.name.includes(needle.replace(/\s+/g, '_'))),
      ),
    }))
    .filter((m) => m.resources.length);

  return (
    <Page title="Records">
      <Field label="Find a resource">
        {(props) => (
          <input
            {...props}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </Field>
      {modules.length === 0 ? (
        <p>No resource {needle ? 'matches' : 'is readable with your rights'}.</p>
      ) : null}
      <div className="modules">
        {modules.map(({ module, resources }) => (
          <section key={module} aria-labelledby={`module-${module}`} className="card">
            <h2 id={`module-${module}`}>{humanize(module)}</h2>
            <ul className="resource-links">
              {resources.map((r) => (
                <li key={r.path}>
                  <Link href={`/records/${r.path}`}>{resourceTitle(r)}</Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Page>
  );
}
