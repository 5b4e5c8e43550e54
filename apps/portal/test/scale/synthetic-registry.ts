import {
  date,
  decimal,
  defineResource,
  enumOf,
  integer,
  MODULES,
  money,
  type Resource,
  reference,
  text,
} from '@erp/contract';

/** `count` generated resources (6 routes each: CRUD + one action), referencing each other. */
export function syntheticRegistry(count: number): Resource[] {
  return Array.from({ length: count }, (_, i) =>
    defineResource({
      name: `synthetic_${i}`,
      path: `synthetic-${i}`,
      module: MODULES[i % MODULES.length]!,
      description: `Synthetic resource ${i}.`,
      numbering: { prefix: `S${i}` },
      fields: {
        name: text({ required: true, filterable: true, sortable: true }),
        code: text({ filterable: true }),
        category: enumOf(['a', 'b', 'c'], { filterable: true }),
        quantity: integer({ filterable: true }),
        amount_cents: money({ required: true, filterable: true, sortable: true }),
        rate: decimal({ filterable: true }),
        due_on: date({ filterable: true }),
        ...(i > 0 ? { previous_id: reference(`synthetic_${i - 1}`, { filterable: true }) } : {}),
      },
      lifecycle: {
        initial: 'brouillon',
        actions: { validate: { from: ['brouillon'], to: 'valide' } },
      },
      events: ['created', 'status_changed'],
    }),
  );
}
