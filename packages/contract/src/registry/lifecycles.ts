import type { ActionDeclaration, LifecycleDeclaration } from './define';
import type { Status } from './statuses';

/** A lifecycle as written, its action names kept as literals (the feed's event types). */
function lifecycle<const A extends string>(
  declaration: LifecycleDeclaration<A>,
): LifecycleDeclaration<A> {
  return declaration;
}

/**
 * Lifecycles most ERP records follow, as presets: a declaration names its family and, where
 * its business differs, adds or replaces actions (`withActions`). Each preset is what ERPNext,
 * Odoo and Business Central do for that family, in the product's status vocabulary.
 */
export const lifecycles = {
  /** Master data kept for history rather than deleted (Odoo's `active` flag): archive, restore. */
  archivable: () =>
    lifecycle({
      initial: 'actif',
      editable: ['actif', 'archive'],
      actions: {
        archive: {
          from: ['actif'],
          to: 'archive',
          description: 'No longer offered; kept for history.',
        },
        restore: { from: ['archive'], to: 'actif', description: 'In use again.' },
      },
    }),

  /** A document that takes effect once validated, then can only be cancelled (ERPNext submit). */
  validatable: () =>
    lifecycle({
      initial: 'brouillon',
      actions: {
        validate: { from: ['brouillon'], to: 'valide', description: 'Final: it takes effect.' },
        cancel: {
          from: ['brouillon', 'valide'],
          to: 'annule',
          description: 'Void; its effect is undone.',
        },
      },
    }),

  /** An accounting document posted to the ledger; a posted one is reversed by cancelling it. */
  postable: () =>
    lifecycle({
      initial: 'brouillon',
      actions: {
        post: {
          from: ['brouillon'],
          to: 'comptabilise',
          description: 'Posted to the ledger: final from now on.',
          stamps: 'posted_at',
        },
        cancel: {
          from: ['brouillon', 'comptabilise'],
          to: 'annule',
          description: 'Void; a posted entry is reversed.',
        },
      },
    }),

  /**
   * Something an approver decides on: submit, approve or reject, reopen a rejected one, cancel.
   * A family that says its steps differently, goes on after approval (send, pay, reimburse) or
   * never reopens or cancels says so in `options` (see ApprovalOptions).
   */
  approvable: <const O extends ApprovalOptions = Record<never, never>>(options?: O) =>
    approval(options ?? {}) as LifecycleDeclaration<ApprovalActions<O>>,

  /** Planned work: start, complete, hold and resume, cancel. */
  schedulable: () =>
    lifecycle({
      initial: 'planifie',
      editable: ['planifie', 'en_cours', 'en_attente'],
      actions: {
        start: { from: ['planifie'], to: 'en_cours', description: 'Work has started.' },
        hold: { from: ['en_cours'], to: 'en_attente', description: 'Paused, waiting.' },
        resume: { from: ['en_attente'], to: 'en_cours', description: 'Work goes on.' },
        complete: { from: ['en_cours'], to: 'termine', description: 'Done.' },
        cancel: {
          from: ['planifie', 'en_cours', 'en_attente'],
          to: 'annule',
          description: 'Will not be done.',
        },
      },
    }),

  /** A request handled by a team (tickets, maintenance requests): open until closed. */
  ticket: () =>
    lifecycle({
      initial: 'nouveau',
      editable: ['nouveau', 'en_cours', 'en_attente', 'resolu'],
      actions: {
        start: { from: ['nouveau'], to: 'en_cours', description: 'Someone is working on it.' },
        wait: { from: ['en_cours'], to: 'en_attente', description: 'Waiting for the requester.' },
        resume: { from: ['en_attente'], to: 'en_cours', description: 'Work goes on.' },
        resolve: {
          from: ['nouveau', 'en_cours', 'en_attente'],
          to: 'resolu',
          description: 'Solved.',
        },
        close: { from: ['resolu'], to: 'ferme', description: 'Closed for good.' },
        reopen: { from: ['resolu', 'ferme'], to: 'en_cours', description: 'Not solved after all.' },
      },
    }),

  /** An agreement in force for a while: activate, suspend and resume, terminate, expire. */
  agreement: () =>
    lifecycle({
      initial: 'brouillon',
      editable: ['brouillon', 'actif', 'suspendu'],
      actions: {
        activate: { from: ['brouillon'], to: 'actif', description: 'In force.' },
        suspend: { from: ['actif'], to: 'suspendu', description: 'Suspended for a while.' },
        resume: { from: ['suspendu'], to: 'actif', description: 'In force again.' },
        terminate: {
          from: ['actif', 'suspendu'],
          to: 'resilie',
          description: 'Ended before its term.',
        },
        expire: { from: ['actif'], to: 'expire', description: 'Reached its end date.' },
        cancel: { from: ['brouillon'], to: 'annule', description: 'Never came into force.' },
      },
    }),

  /** A period that accepts entries until closed (fiscal years, accounting periods, payroll). */
  period: () =>
    lifecycle({
      initial: 'ouvert',
      actions: {
        close: { from: ['ouvert'], to: 'ferme', description: 'No more entries.' },
        reopen: { from: ['ferme'], to: 'ouvert', description: 'Accepts entries again.' },
      },
    }),
} satisfies Record<string, (...args: never[]) => LifecycleDeclaration>;

/** One decision step as a family words it: the event it records, its own description. */
interface ApprovalStep {
  emits?: string;
  description?: string;
  /** Fields that must be set before the step (see ActionDeclaration). */
  requires?: readonly string[];
}

/** How an approval lifecycle departs from the `approvable` preset. */
export interface ApprovalOptions {
  submit?: ApprovalStep;
  approve?: ApprovalStep;
  reject?: ApprovalStep;
  /** What an approved record goes on to (send, pay, reimburse), listed after the decision. */
  afterApproval?: Record<string, ActionDeclaration>;
  /** `false`: a rejected record stays rejected. */
  reopen?: false;
  /** The family's own withdrawal, or `false`: never withdrawn. */
  cancel?: ActionDeclaration | false;
  /** A document that allocations settle once approved (see LifecycleDeclaration). */
  settlement?: LifecycleDeclaration['settlement'];
}

/** The action names of `approvable(options)`, literal (the feed's event types). */
type ApprovalActions<O extends ApprovalOptions> =
  | 'submit'
  | 'approve'
  | 'reject'
  | (O extends { afterApproval: infer X } ? keyof X & string : never)
  | (O extends { reopen: false } ? never : 'reopen')
  | (O extends { cancel: false } ? never : 'cancel');

/** The approval preset's actions, in order: the decision, what follows it, reopen, cancel. */
function approval(options: ApprovalOptions): LifecycleDeclaration {
  const step = (
    name: 'submit' | 'approve' | 'reject',
    from: Status,
    to: Status,
    description: string,
  ): ActionDeclaration => {
    const own = options[name] ?? {};
    return {
      from: [from],
      to,
      description: own.description ?? description,
      ...(own.emits ? { emits: own.emits } : {}),
      ...(own.requires ? { requires: own.requires } : {}),
    };
  };
  const actions: Record<string, ActionDeclaration> = {
    submit: step('submit', 'brouillon', 'en_attente_approbation', 'Sent to the approver.'),
    approve: step('approve', 'en_attente_approbation', 'approuve', 'Approved.'),
    reject: step('reject', 'en_attente_approbation', 'rejete', 'Rejected by the approver.'),
    ...options.afterApproval,
  };
  if (options.reopen !== false)
    actions.reopen = {
      from: ['rejete'],
      to: 'brouillon',
      description: 'Back to draft to be corrected.',
    };
  if (options.cancel !== false)
    actions.cancel = options.cancel ?? {
      from: ['brouillon', 'en_attente_approbation'],
      to: 'annule',
      description: 'Withdrawn.',
    };
  return {
    initial: 'brouillon',
    actions,
    ...(options.settlement ? { settlement: options.settlement } : {}),
  };
}

/** The action names of `base` after `withActions(base, actions)`: removed ones (`null`) gone. */
type MergedActions<A extends string, X> =
  | Exclude<A, { [K in keyof X]: X[K] extends null ? K : never }[keyof X]>
  | { [K in keyof X]: X[K] extends null ? never : K }[keyof X];

/** A preset with some actions added or replaced (an action set to `null` is removed). */
export function withActions<
  A extends string,
  const X extends Record<string, ActionDeclaration | null>,
>(
  base: LifecycleDeclaration<A>,
  actions: X,
  options: { editable?: readonly Status[] } = {},
): LifecycleDeclaration<MergedActions<A, X> & string> {
  const merged: Record<string, ActionDeclaration> = { ...base.actions };
  for (const [name, action] of Object.entries(actions)) {
    if (action === null) delete merged[name];
    else merged[name] = action;
  }
  return {
    ...base,
    ...(options.editable ? { editable: options.editable } : {}),
    actions: merged as Record<MergedActions<A, X> & string, ActionDeclaration>,
  };
}
