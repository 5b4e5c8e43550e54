import type { Resource } from '@erp/contract';
import type pg from 'pg';
// The portal's own engine (bench is a tool, not an app): the statements are the ones it sends.
import { insertRecord, patchRecord } from '../../../apps/portal/src/resources/records-write';

/** A write statement and its parameters; `vary` marks the parameters each call changes. */
export interface WriteStatement {
  text: string;
  values: unknown[];
  /** Index in `values` of each varied parameter (say the record id), or -1. */
  vary: Record<string, number>;
}

/** The three forms each write is measured in, in one run. */
export type Variant = 'engine' | 'no history' | 'bare';

const ACTOR = { type: 'user', id: '00000000-0000-4000-8000-00000000a11c' } as const;
const PLACEHOLDER_ID = '00000000-0000-4000-8000-0000000b1d00';
const PLACEHOLDER_NOTE = 'bench note placeholder';

/** Runs the engine against a client that records the statement instead of sending it. */
async function capture(
  write: (client: pg.PoolClient) => Promise<unknown>,
): Promise<{ text: string; values: unknown[] }> {
  let captured: { text: string; values: unknown[] } | undefined;
  const recorder = {
    query: async (text: string, values: unknown[]) => {
      captured = { text, values };
      return { rows: [{ j: '{}', version: 2, old_version: 1, old_status: 'brouillon' }] };
    },
  } as unknown as pg.PoolClient;
  await write(recorder);
  if (!captured) throw new Error('the engine sent no statement');
  return captured;
}

/** The engine's INSERT of `body` for `tenantId`, in the form `variant`. */
export async function insertStatement(
  resource: Resource,
  tenantId: string,
  body: Record<string, unknown>,
  variant: Variant,
): Promise<WriteStatement> {
  const engine = await capture((c) => insertRecord(c, resource, tenantId, body, ACTOR));
  return reduce(engine, variant, {});
}

/** The engine's PATCH of `notes` (varied per call) on a record (varied per call). */
export async function updateStatement(
  resource: Resource,
  tenantId: string,
  variant: Variant,
): Promise<WriteStatement> {
  const engine = await capture((c) =>
    patchRecord(c, resource, tenantId, PLACEHOLDER_ID, { notes: PLACEHOLDER_NOTE }, null, ACTOR),
  );
  return reduce(engine, variant, { id: PLACEHOLDER_ID, notes: PLACEHOLDER_NOTE });
}

/**
 * The engine's statement as it was before record history (`no history`: without the history
 * CTE and the locked old row it compares with), or with neither history nor event (`bare`:
 * the record alone). Parameters the removed parts used are dropped and the rest renumbered.
 */
function reduce(
  statement: { text: string; values: unknown[] },
  variant: Variant,
  placeholders: Record<string, unknown>,
): WriteStatement {
  let text = statement.text;
  if (variant !== 'engine') {
    text = removeCte(text, 'h');
    text = removeOldRow(text);
  }
  if (variant === 'bare') text = removeCte(text, 'ev');
  const used = [...new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort(
    (a, b) => a - b,
  );
  const renumbered = new Map(used.map((n, i) => [n, i + 1]));
  text = text.replace(/\$(\d+)/g, (_, n: string) => `$${renumbered.get(Number(n))}`);
  const values = used.map((n) => statement.values[n - 1]);
  const vary = Object.fromEntries(
    Object.entries(placeholders).map(([name, value]) => [name, values.indexOf(value)]),
  );
  return { text, values, vary };
}

/** Removes `, <name> AS (…)` (parentheses matched) from a WITH list. */
function removeCte(text: string, name: string): string {
  const match = new RegExp(`,\\s*${name} AS \\(`).exec(text);
  if (!match) return text;
  const end = closingParen(text, match.index + match[0].length - 1);
  return text.slice(0, match.index) + text.slice(end + 1);
}

/** Removes the locked old row the history compares with (`t AS was`) from the `old` CTE. */
function removeOldRow(text: string): string {
  return text.replace(', t AS was FROM', ' FROM');
}

function closingParen(text: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    // Parentheses inside string literals do not count.
    if (c === "'") quoted = !quoted;
    if (quoted) continue;
    if (c === '(') depth++;
    if (c === ')' && --depth === 0) return i;
  }
  throw new Error('unbalanced parentheses');
}
