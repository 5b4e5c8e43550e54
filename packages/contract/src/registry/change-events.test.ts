import { describe, expect, it } from 'vitest';
import {
  BUSINESS_EVENT_NAMES,
  catalogue,
  FEED_EVENT_NAMES,
  type FeedEventName,
} from '../catalogue/index';
import { changeEventTypes } from './change-events';
import { defineResource } from './define';
import { text } from './fields';
import { lifecycles, withActions } from './lifecycles';

// The feed's names are literals, not `string`: a typo is a compile error.
const literal: string extends FeedEventName ? false : true = true;
const generic: FeedEventName = 'lead.qualify';
// @ts-expect-error sales orders have §7's status_changed: no generic name per action
const covered: FeedEventName = 'sales_order.confirm';
// @ts-expect-error promotions removed the preset's terminate
const removed: FeedEventName = 'promotion.terminate';

const byName = new Map(catalogue.map((r) => [r.name, r]));

describe('the events of changes (SPEC §12)', () => {
  it('names every change of every resource, each name once, §7’s among them', () => {
    expect([literal, generic, covered, removed]).toHaveLength(4);
    expect(new Set(FEED_EVENT_NAMES).size).toBe(FEED_EVENT_NAMES.length);
    for (const name of BUSINESS_EVENT_NAMES) expect(FEED_EVENT_NAMES).toContain(name);
    for (const r of catalogue) {
      for (const change of ['created', 'updated', 'deleted'])
        expect(r.feedEventNames, r.name).toContain(`${r.name}.${change}`);
    }
  });

  it('uses §7’s name where it applies, the generic one otherwise, approval steps beside', () => {
    const so = byName.get('sales_order')!;
    const po = byName.get('purchase_order')!;
    const expense = byName.get('expense_report')!;
    const lead = byName.get('lead')!;
    expect(changeEventTypes(so, { kind: 'create' })).toEqual(['sales_order.created']);
    expect(changeEventTypes(so, { kind: 'action', action: 'confirm' })).toEqual([
      'sales_order.status_changed',
    ]);
    expect(changeEventTypes(po, { kind: 'action', action: 'approve' })).toEqual([
      'purchase_order.status_changed',
      'purchase_order.approved',
    ]);
    expect(changeEventTypes(expense, { kind: 'action', action: 'approve' })).toEqual([
      'expense_report.approve',
      'expense_report.approved',
    ]);
    expect(changeEventTypes(lead, { kind: 'action', action: 'qualify' })).toEqual(['lead.qualify']);
    expect(changeEventTypes(lead, { kind: 'delete' })).toEqual(['lead.deleted']);
  });

  it('refuses an action whose generic event would be another change’s', () => {
    const declare = (action: string) =>
      defineResource({
        name: 'gadget',
        path: 'gadgets',
        module: 'sales',
        description: 'x',
        fields: { label: text() },
        lifecycle: withActions(lifecycles.archivable(), {
          [action]: { from: ['actif'], to: 'archive' },
        }),
      });
    expect(() => declare('deleted')).toThrow(/same event type/);
    expect(() => declare('updated')).toThrow(/same event type/);
    expect(declare('retire').feedEventNames).toContain('gadget.retire');
  });
});
