import { describe, expect, it } from 'vitest';
import type { ResourceInfo } from './catalogue-types';
import { apiQuery, inItems, parseListState, searchOf } from './list-query';

const orders: ResourceInfo = {
  name: 'sales_order',
  path: 'sales-orders',
  module: 'sales',
  description: '',
  label: 'number',
  fields: [
    { name: 'id', type: 'uuid', filterable: true, sortable: true, readOnly: true },
    {
      name: 'status',
      type: 'enum',
      values: ['brouillon', 'confirme'],
      filterable: true,
      sortable: true,
    },
    { name: 'customer_reference', type: 'text', filterable: true },
    { name: 'notes', type: 'text' },
  ],
};

describe('the list state in the address', () => {
  it('reads filters, order and cursor in the API syntax, ignoring what is not filterable', () => {
    const state = parseListState(
      orders,
      '?status=eq.confirme&notes=eq.x&unknown=eq.y&order=status.desc&cursor=abc&customer_reference=ilike.*PO*',
    );
    expect(state).toEqual({
      filters: [
        { field: 'status', op: 'eq', value: 'confirme' },
        { field: 'customer_reference', op: 'ilike', value: '*PO*' },
      ],
      order: { field: 'status', direction: 'desc' },
      cursor: 'abc',
    });
  });

  it('writes the same query back, a field repeated for AND, `in` quoted like the sdk', () => {
    const state = parseListState(orders, '?status=in.(brouillon,"a,b")&status=neq.confirme');
    expect(state.filters[0]).toEqual({ field: 'status', op: 'in', value: 'brouillon, a,b' });
    const query = apiQuery({
      filters: [
        { field: 'status', op: 'in', value: 'brouillon, confirme' },
        { field: 'status', op: 'neq', value: 'x' },
        { field: 'customer_reference', op: 'eq', value: '' },
        { field: 'customer_reference', op: 'is', value: 'null' },
      ],
      order: { field: 'status', direction: 'asc' },
      cursor: undefined,
    });
    expect(query).toEqual({
      status: ['in.(brouillon,confirme)', 'neq.x'],
      customer_reference: ['is.null'],
      order: ['status.asc'],
    });
  });

  it('keeps the address readable: parentheses and commas are not escaped', () => {
    expect(
      searchOf({
        filters: [{ field: 'status', op: 'in', value: 'brouillon, confirme' }],
        order: undefined,
        cursor: undefined,
      }),
    ).toBe('?status=in.(brouillon,confirme)');
    expect(searchOf({ filters: [], order: undefined, cursor: undefined })).toBe('');
  });

  it('splits `in` items with quotes and escapes', () => {
    expect(inItems('(a,"b,c","d\\"e")')).toEqual(['a', 'b,c', 'd"e']);
    expect(inItems('()')).toEqual([]);
  });
});
