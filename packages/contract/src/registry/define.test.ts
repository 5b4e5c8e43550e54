import { describe, expect, it } from 'vitest';
import {
  createRegistry,
  defineResource,
  inDependencyOrder,
  type ResourceDeclaration,
} from './define';
import { decimal, lines, money, reference, text, USER } from './fields';

const base: ResourceDeclaration = {
  name: 'widget',
  path: 'widgets',
  module: 'sales',
  description: 'w',
  fields: { label: text({ required: true }) },
};
const define = (patch: Partial<ResourceDeclaration>) => () => defineResource({ ...base, ...patch });

describe('defineResource refuses declarations that would break the table, the routes or the events', () => {
  it('accepts a sound declaration', () => {
    expect(define({})()).toMatchObject({ table: 'widgets', schemaName: 'Widget' });
  });
  it.each([
    ['a bad name', { name: 'Widget' }, /snake_case/],
    ['a platform path', { path: 'events' }, /taken by the platform/],
    ['the name of platform users', { name: USER, path: 'staff' }, /taken by the platform's users/],
    ['an SQL keyword as field', { fields: { user: text() } }, /SQL keyword/],
    ['a reserved field', { fields: { status: text() } }, /reserved/],
    [
      'a sortable optional field',
      { fields: { label: text({ sortable: true }) } },
      /must be required/,
    ],
    [
      'a filterable lines field',
      { fields: { items: lines({ x: text() }, { filterable: true }) } },
      /cannot be filterable/,
    ],
    [
      'totals without typed quantity',
      {
        totalsFrom: 'items',
        fields: {
          items: lines({
            quantity: text({ required: true }),
            unit_price_cents: money({ required: true }),
          }),
        },
      },
      /decimal quantity/,
    ],
    [
      'an action named like a record change',
      {
        lifecycle: {
          initial: 'brouillon',
          actions: { update: { from: ['brouillon'], to: 'confirme' } },
        },
      },
      /would read as a record change in the history/,
    ],
    [
      'an unknown editable state',
      {
        lifecycle: {
          initial: 'brouillon',
          editable: ['brouilon'],
          actions: { confirm: { from: ['brouillon'], to: 'confirme' } },
        },
      },
      /editable state brouilon/,
    ],
    [
      'a state outside the vocabulary',
      {
        lifecycle: {
          initial: 'brouillon',
          actions: { go: { from: ['brouillon'], to: 'annulee' as never } },
        },
      },
      /state annulee is not in the status vocabulary/,
    ],
    [
      'an emits not listed in events',
      {
        lifecycle: {
          initial: 'brouillon',
          actions: { go: { from: ['brouillon'], to: 'approuve', emits: 'approved' } },
        },
        events: ['created'],
      },
      /emits approved, which is not in events/,
    ],
    [
      'an event no action records',
      { events: ['created', 'approved'] },
      /event approved is recorded by no action/,
    ],
    ['status_changed without lifecycle', { events: ['status_changed'] }, /need a lifecycle/],
    ['an event listed twice', { events: ['created', 'created'] }, /listed twice/],
  ])('refuses %s', (_, patch, message) => {
    expect(define(patch as Partial<ResourceDeclaration>)).toThrow(message);
  });
  it('accepts totals with decimal quantity and money unit price', () => {
    expect(
      define({
        totalsFrom: 'items',
        fields: {
          items: lines({
            quantity: decimal({ required: true }),
            unit_price_cents: money({ required: true }),
            tax_rate: decimal(),
          }),
        },
      })().readOnlyFields.total_cents,
    ).toBeDefined();
  });
});

describe('createRegistry refuses references it cannot keep in the tenant', () => {
  const widget = (fields: ResourceDeclaration['fields']) => defineResource({ ...base, fields });
  it('accepts a user reference at the top level, and a line naming a resource', () => {
    const registry = createRegistry([
      widget({ owner_id: reference(USER), items: lines({ widget_id: reference('widget') }) }),
    ]);
    expect(registry.get('widget')?.fields.owner_id).toMatchObject({ resource: USER });
  });
  it.each([
    [
      'an unknown resource',
      { other_id: reference('gadget') },
      /field other_id references unknown resource gadget/,
    ],
    [
      'an unknown resource in lines',
      { items: lines({ gadget_id: reference('gadget') }) },
      /items\[\]\.gadget_id references unknown resource gadget/,
    ],
    [
      'a user in lines',
      { items: lines({ user_id: reference(USER) }) },
      /items\[\]\.user_id references a user \(not supported in lines\)/,
    ],
  ])('refuses %s', (_, fields, message) => {
    expect(() => createRegistry([widget(fields)])).toThrow(message);
  });
});

describe('inDependencyOrder', () => {
  const r = (name: string, refs: string[] = [], lineRefs: string[] = []) =>
    defineResource({
      ...base,
      name,
      path: name.replace(/_/g, '-'),
      fields: {
        label: text({ required: true }),
        ...Object.fromEntries(refs.map((to) => [`${to}_id`, reference(to)])),
        ...(lineRefs.length
          ? { items: lines(Object.fromEntries(lineRefs.map((to) => [`${to}_id`, reference(to)]))) }
          : {}),
      },
    });

  it('puts every resource after those it refers to, keeping the given order otherwise', () => {
    const order = inDependencyOrder([
      r('invoice_line_holder', ['customer'], ['product']),
      r('customer', ['customer']),
      r('product'),
      r('note'),
    ]).map((x) => x.name);
    expect(order).toEqual(['customer', 'product', 'invoice_line_holder', 'note']);
  });

  it('refuses a cycle', () => {
    expect(() => inDependencyOrder([r('a', ['b']), r('b', ['a'])])).toThrow(/cycle: a, b/);
  });
});
