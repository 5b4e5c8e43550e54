import {
  type AccountRule,
  type AccountSetting,
  ApiError,
  canonicalDecimal,
  centsNumber,
  convertCents,
  documentTotals,
  lineNetCents,
  type PostingLeg,
  type PostingRule,
  type PricedLine,
} from '@erp/contract';

/** What a posting reads besides the document: its accounts, taxes, journal and rate. */
export interface PostingContext {
  companyCurrency: string;
  settings: Partial<Record<AccountSetting, string | null>>;
  /** The party's own receivable or payable account. */
  partyAccount: string | null;
  products: Record<string, { revenue: string | null; expense: string | null; type?: string }>;
  /** The unit prices of the order lines the document's lines were made from, by line id. */
  sourcePrices: Record<string, number>;
  /** Each tax named by a line: its account and its rate on the document's date. */
  taxes: Record<string, { account: string | null; rate: string | null }>;
  journal: { id: string; default_account_id: string | null };
  /** Company currency per unit of the document's currency; '1' in the company currency. */
  rate: string;
}

/** A line of a journal entry as posted: one side positive, in company currency. */
export interface EntryLine {
  account_id: string;
  label: string;
  debit_cents: number;
  credit_cents: number;
  customer_id?: string;
  supplier_id?: string;
  tax_id?: string;
  due_date?: string;
  currency?: string;
  amount_currency_cents?: number;
}

type Document = Record<string, unknown>;

/**
 * The lines a rule posts for a document (SPEC §17): each leg's amount in the document's
 * currency (the total, the nets grouped by account, the tax of each tax and rate, or the
 * record's amount), converted at the document's rate; the total's leg takes the rounding of
 * the conversion, so the entry balances to the cent. A negative amount posts on the other
 * side; nothing is posted for zero.
 */
export function entryLines(rule: PostingRule, doc: Document, ctx: PostingContext): EntryLine[] {
  const currency = String(doc.currency ?? ctx.companyCurrency);
  const foreign = currency !== ctx.companyCurrency;
  const reference = String(doc.number ?? '');
  const partyId = doc[rule.party.field] as string | undefined;
  const amounts = legAmounts(rule, doc, ctx);
  const lines: EntryLine[] = [];
  let converted = 0n;
  let totalLine: EntryLine | undefined;
  for (const { leg, account, cents, label } of amounts) {
    if (cents === 0n) continue;
    const signed = leg.side === 'debit' ? cents : -cents;
    const company = foreign ? convertCents(signed, ctx.rate) : signed;
    const line: EntryLine = {
      account_id: account,
      label: label ? `${reference} ${label}`.trim() : reference,
      debit_cents: company > 0n ? centsNumber(company) : 0,
      credit_cents: company < 0n ? centsNumber(-company) : 0,
      ...(leg.party && partyId ? { [`${rule.party.kind}_id`]: partyId } : {}),
      ...(leg.party && rule.due && doc[rule.due] ? { due_date: String(doc[rule.due]) } : {}),
      ...(foreign ? { currency, amount_currency_cents: centsNumber(signed) } : {}),
    };
    if (leg.amount === 'total' || leg.amount === 'amount') totalLine ??= line;
    converted += company;
    lines.push(line);
  }
  // The conversion's rounding goes to the total's line, so the entry balances.
  if (converted !== 0n && totalLine) {
    const net = BigInt(totalLine.debit_cents - totalLine.credit_cents) - converted;
    totalLine.debit_cents = net > 0n ? centsNumber(net) : 0;
    totalLine.credit_cents = net < 0n ? centsNumber(-net) : 0;
  }
  return lines.filter((l) => l.debit_cents > 0 || l.credit_cents > 0);
}

interface LegAmount {
  leg: PostingLeg;
  account: string;
  cents: bigint;
  label?: string;
}

function legAmounts(rule: PostingRule, doc: Document, ctx: PostingContext): LegAmount[] {
  const priced = (doc.lines as PricedLine[] | undefined) ?? [];
  const totals = rule.legs.some((l) => l.amount !== 'amount') ? checkedTotals(priced, ctx) : null;
  const out: LegAmount[] = [];
  for (const leg of rule.legs) {
    if (leg.amount === 'amount') {
      out.push({
        leg,
        account: accountOf(leg.account, ctx),
        cents: BigInt(doc.amount_cents as number),
      });
    } else if (leg.amount === 'total') {
      out.push({ leg, account: accountOf(leg.account, ctx), cents: BigInt(totals!.total_cents) });
    } else if (leg.amount === 'line_net') {
      const byAccount = new Map<string, bigint>();
      priced.forEach((line, i) => {
        const product = line.product_id ? ctx.products[line.product_id as string] : undefined;
        const own =
          leg.account.override === 'product_revenue'
            ? product?.revenue
            : leg.account.override === 'product_expense'
              ? product?.expense
              : undefined;
        const account = own ?? accountOf({ setting: leg.account.setting! }, ctx);
        const add = (to: string, cents: bigint) =>
          byAccount.set(to, (byAccount.get(to) ?? 0n) + cents);
        const net = BigInt(totals!.lines_net_cents[i]!);
        // Received goods (SPEC §18): their order value clears what the receipt credited; the
        // difference from the order's price stays on the leg's account.
        const price =
          ctx.sourcePrices[String((line as { source_line_id?: string }).source_line_id)];
        if (leg.received && price !== undefined && product?.type === 'stockable') {
          const received = lineNetCents(line.quantity, price);
          add(accountOf({ setting: leg.received }, ctx), received);
          add(account, net - received);
        } else add(account, net);
      });
      for (const [account, cents] of byAccount) out.push({ leg, account, cents });
    } else {
      for (const tax of totals!.taxes) {
        const own = tax.tax_id ? ctx.taxes[tax.tax_id]?.account : undefined;
        const account = own ?? accountOf({ setting: leg.account.setting! }, ctx);
        out.push({ leg, account, cents: BigInt(tax.tax_cents), label: `TVA ${tax.rate} %` });
      }
    }
  }
  return out;
}

/** The document's totals, each taxed line's rate being its tax's on the document's date. */
function checkedTotals(lines: readonly PricedLine[], ctx: PostingContext) {
  lines.forEach((line, i) => {
    if (!line.tax_id) return;
    const rate = ctx.taxes[line.tax_id]?.rate;
    if (rate === null || rate === undefined)
      throw new ApiError(
        'requete_invalide',
        `The tax of line ${i + 1} has no rate on the document's date.`,
        {
          issues: [
            {
              location: 'json',
              path: `lines.${i}.tax_id`,
              code: 'no_rate',
              message: 'no rate on the date',
            },
          ],
        },
      );
    if (canonicalDecimal(rate) !== canonicalDecimal(line.tax_rate))
      throw new ApiError(
        'requete_invalide',
        `Line ${i + 1}'s tax_rate is ${line.tax_rate}, its tax's rate on the document's date is ${canonicalDecimal(rate)}: correct the line.`,
        {
          issues: [
            {
              location: 'json',
              path: `lines.${i}.tax_rate`,
              code: 'tax_rate_mismatch',
              message: `the tax's rate is ${canonicalDecimal(rate)}`,
            },
          ],
        },
      );
  });
  return documentTotals(lines);
}

/** The account of a leg: the journal's, or the setting's (an override is applied by the caller). */
function accountOf(rule: AccountRule | { setting: AccountSetting }, ctx: PostingContext): string {
  if ('override' in rule && rule.override === 'journal') {
    if (!ctx.journal.default_account_id)
      throw new ApiError('compte_invalide', 'The journal has no default account to post to.', {
        setting: 'journal.default_account_id',
        reason: 'unset',
      });
    return ctx.journal.default_account_id;
  }
  if ('override' in rule && rule.override === 'party' && ctx.partyAccount) return ctx.partyAccount;
  const setting = rule.setting!;
  const account = ctx.settings[setting];
  if (!account)
    throw new ApiError('compte_invalide', `Settings → Accounting names no ${setting} account.`, {
      setting,
      reason: 'unset',
    });
  return account;
}
