import { describe, expect, it } from 'vitest';
import type { FeedEventName } from '../catalogue/index';
import { lifecycles } from './lifecycles';

// The options keep the action names literal: an expense report (no status_changed) records a
// generic event per action, the one it goes on to after approval included.
const after: FeedEventName = 'expense_report.reimburse';
// @ts-expect-error expense reports never reopen (`reopen: false`)
const dropped: FeedEventName = 'expense_report.reopen';

describe('the approvable preset', () => {
  it('is the decision, then reopen and cancel, in that order', () => {
    const preset = lifecycles.approvable();
    expect(preset.initial).toBe('brouillon');
    expect(Object.keys(preset.actions)).toEqual([
      'submit',
      'approve',
      'reject',
      'reopen',
      'cancel',
    ]);
    expect(preset.actions.cancel.from).toEqual(['brouillon', 'en_attente_approbation']);
    expect(Object.values(preset.actions).some((a) => 'emits' in a)).toBe(false);
  });

  it('words the steps, goes on after approval and drops reopen or cancel as told', () => {
    expect([after, dropped]).toHaveLength(2);
    const pay = { from: ['approuve'], to: 'paye' } as const;
    const own = lifecycles.approvable({
      approve: { emits: 'approved', description: 'Approved for payment.' },
      afterApproval: { pay },
      reopen: false,
    });
    expect(Object.keys(own.actions)).toEqual(['submit', 'approve', 'reject', 'pay', 'cancel']);
    expect(own.actions.approve).toEqual({
      from: ['en_attente_approbation'],
      to: 'approuve',
      description: 'Approved for payment.',
      emits: 'approved',
    });
    expect(own.actions.submit.description).toBe('Sent to the approver.');
    expect(own.actions.pay).toBe(pay);
    const never = lifecycles.approvable({ cancel: false });
    expect(Object.keys(never.actions)).toEqual(['submit', 'approve', 'reject', 'reopen']);
  });
});
