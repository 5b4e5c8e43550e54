import type { LifecycleDeclaration } from '../../registry/define';

/**
 * Manufacturing master data that production may use only once certified (BC's BOM and routing
 * status New → Certified → Closed, ERPNext's submitted BOM): a draft is edited freely; an
 * active one is frozen, since orders were planned from it, and is changed by drafting a new
 * revision; a replaced one is archived for the orders that used it.
 */
export const certifiable = (): LifecycleDeclaration => ({
  initial: 'brouillon',
  editable: ['brouillon'],
  actions: {
    activate: {
      from: ['brouillon'],
      to: 'actif',
      description: 'Certified: production may use it; a change needs a new revision.',
    },
    archive: {
      from: ['actif'],
      to: 'archive',
      description: 'Replaced or withdrawn; kept for the orders that used it.',
    },
    restore: { from: ['archive'], to: 'actif', description: 'In use again.' },
  },
});
