/**
 * The document flow (SPEC §18) read from the catalogue: which conversions a document offers in
 * its state, which documents it was made from or into, the quantities its lines count, and the
 * request a quantities dialog sends. No resource is named here: a conversion declared in the
 * contract appears with `pnpm codegen`.
 */
import type { Catalogue } from '../records/catalogue';
import type { ConversionInfo, FieldInfo, ResourceInfo } from '../records/catalogue-types';
import { humanize } from '../ui/format';
import { formatQuantity, parseQuantity, remainingOf } from './quantity';

type Row = Record<string, unknown>;

/** The conversions a document in `status` may make (the others answer 409). */
export function openConversions(resource: ResourceInfo, status: unknown): ConversionInfo[] {
  return (resource.conversions ?? []).filter((c) => c.from.includes(String(status)));
}

/** A conversion's button: `make_delivery` → `Make delivery`. */
export function conversionLabel(conversion: ConversionInfo): string {
  return humanize(conversion.name);
}

/** A link between two kinds of document: the source, the target, and the conversion. */
export interface FlowLink {
  source: ResourceInfo;
  target: ResourceInfo;
  conversion: ConversionInfo;
}

/** The documents `resource` may be made from (a delivery: the sales order), by their link. */
export function sourcesOf(catalogue: Catalogue, resource: ResourceInfo): FlowLink[] {
  return catalogue.resources.flatMap((source) =>
    (source.conversions ?? [])
      .filter((conversion) => conversion.target === resource.name)
      .map((conversion) => ({ source, target: resource, conversion })),
  );
}

/** The documents `resource` is made into (a sales order: deliveries, invoices). */
export function targetsOf(catalogue: Catalogue, resource: ResourceInfo): FlowLink[] {
  return (resource.conversions ?? []).flatMap((conversion) => {
    const target = catalogue.byName.get(conversion.target);
    return target ? [{ source: resource, target, conversion }] : [];
  });
}

/** The lines' counted quantities, in the order of the conversions that count them. */
export function countedFields(resource: ResourceInfo, lines: FieldInfo): FieldInfo[] {
  const counted = new Set((resource.conversions ?? []).map((c) => c.counts));
  return (lines.lineReadOnly ?? []).filter((f) => counted.has(f.name));
}

/** A line a conversion may take, with what remains of it. */
export interface OpenLine {
  id: string;
  line: Row;
  remaining: string;
}

/** The lines of `record` with what remains for `conversion` (all of them, even at 0). */
export function openLines(record: Row, conversion: ConversionInfo): OpenLine[] {
  const lines = Array.isArray(record.lines) ? (record.lines as Row[]) : [];
  return lines.map((line) => ({
    id: String(line.id),
    line,
    remaining: remainingOf(line.quantity, line[conversion.counts]),
  }));
}

/** What the dialog sends, or why it cannot. */
export type ConversionRequest =
  | { body: undefined | { lines: { line_id: string; quantity: string }[] } }
  | { invalid: Record<string, string> }
  | { nothing: true };

/**
 * The request for the quantities asked (by line id): no body when every line takes all that
 * remains (the portal then takes every remaining quantity), else the lines asked more than 0.
 * A quantity that is not a decimal, or over what remains, is refused here by line id; the
 * portal checks again (another user may have taken some meanwhile).
 */
export function conversionRequest(
  lines: readonly OpenLine[],
  asked: Readonly<Record<string, string>>,
): ConversionRequest {
  const invalid: Record<string, string> = {};
  const taken: { line_id: string; quantity: string }[] = [];
  let whole = true;
  for (const { id, remaining } of lines) {
    const text = asked[id] ?? remaining;
    const quantity = parseQuantity(text);
    const left = parseQuantity(remaining) ?? 0n;
    if (quantity === undefined) invalid[id] = 'Not a quantity: a number such as 2 or 1.5.';
    else if (quantity > left) invalid[id] = `More than remains (${remaining}).`;
    else {
      if (quantity !== left) whole = false;
      if (quantity > 0n) taken.push({ line_id: id, quantity: formatQuantity(quantity) });
    }
  }
  if (Object.keys(invalid).length) return { invalid };
  if (!taken.length) return { nothing: true };
  return { body: whole ? undefined : { lines: taken } };
}
