import { useMe } from '../api/auth';
import { raw } from '../api/client';
import { useLoad } from '../api/use-load';
import { type Catalogue, canRead } from '../records/catalogue';
import type { ResourceInfo } from '../records/catalogue-types';
import { ErrorBanner, Loading } from '../ui/alert';
import { LedgerTable, LevelsTable, stockViews } from './stock-tables';

type Row = Record<string, unknown>;
const LEDGER_PAGE = 50;

/**
 * On the page of what the stock levels count (a product): its levels by warehouse and location,
 * and its stock ledger, newest first, each entry linking to the document that moved it.
 */
export function ProductStockSection({
  catalogue,
  resource,
  id,
  changedAt,
}: {
  catalogue: Catalogue;
  resource: ResourceInfo;
  id: string;
  changedAt: string;
}) {
  const me = useMe();
  const { levels, ledger } = stockViews(catalogue);
  const counted = levels?.fields.find((f) => f.name === 'product_id')?.ref === resource.name;
  if (!levels || !ledger || !counted || !canRead(me, levels.module)) return null;
  return (
    <ProductStock
      catalogue={catalogue}
      levels={levels}
      ledger={ledger}
      id={id}
      changedAt={changedAt}
    />
  );
}

function ProductStock({
  catalogue,
  levels,
  ledger,
  id,
  changedAt,
}: {
  catalogue: Catalogue;
  levels: ResourceInfo;
  ledger: ResourceInfo;
  id: string;
  changedAt: string;
}) {
  const lists = useLoad(
    async (signal) => {
      const [l, e] = await Promise.all([
        raw.get(`/api/v1/${levels.path}`, {
          query: { product_id: `eq.${id}`, page_size: 200 },
          signal,
        }),
        raw.get(`/api/v1/${ledger.path}`, {
          query: { product_id: `eq.${id}`, order: ['posted_at.desc'], page_size: LEDGER_PAGE },
          signal,
        }),
      ]);
      const error = l.error ?? e.error;
      if (error) return { error };
      return {
        data: {
          levels: (l.data as { data: Row[] }).data,
          entries: (e.data as { data: Row[] }).data,
        },
      };
    },
    [id, changedAt],
  );
  const data = lists.data;
  return (
    <section aria-labelledby="stock" className="stock">
      <h2 id="stock">Stock</h2>
      <ErrorBanner error={lists.error} />
      {!data && lists.loading ? <Loading what="the stock" /> : null}
      {data ? (
        <>
          <h3 id="stock-levels">Levels</h3>
          {data.levels.length ? (
            <LevelsTable
              catalogue={catalogue}
              rows={data.levels}
              caption="Stock levels"
              without="product_id"
            />
          ) : (
            <p>Never held in stock.</p>
          )}
          <h3 id="stock-ledger">Stock ledger</h3>
          {data.entries.length ? (
            <>
              <LedgerTable catalogue={catalogue} rows={data.entries} caption="Stock ledger" />
              {data.entries.length === LEDGER_PAGE ? (
                <p className="muted small">The {LEDGER_PAGE} latest entries.</p>
              ) : null}
            </>
          ) : (
            <p>No movement yet.</p>
          )}
        </>
      ) : null}
    </section>
  );
}
