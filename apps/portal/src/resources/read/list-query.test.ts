import {
  ApiError,
  boolean,
  date,
  decimal,
  defineResource,
  enumOf,
  integer,
  money,
  reference,
  text,
  timestamp,
} from '@erp/contract';
import { describe, expect, it } from 'vitest';
import { likePattern, parseList, parseListQuery } from './list-query';

const widget = defineResource({
  name: 'widget',
  path: 'widgets',
  module: 'sales',
  description: 'test',
  fields: {
    name: text({ required: true, filterable: true, sortable: true }),
    size: integer({ filterable: true }),
    price_cents: money({ filterable: true }),
    weight: decimal({ filterable: true }),
    active: boolean({ filterable: true }),
    due_on: date({ filterable: true }),
    seen_at: timestamp({ filterable: true }),
    kind: enumOf(['a', 'b'], { filterable: true }),
    owner_id: reference('widget', { filterable: true }),
    secret: text(),
  },
});

const parse = (query: Record<string, string[]>) => parseListQuery(widget, query);
const failure = (query: Record<string, string[]>) => {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('filtre_invalide');
    return (error as ApiError).params;
  }
  throw new Error('expected filtre_invalide');
};

describe('list query', () => {
  it('parses every operator on the types it applies to', () => {
    const { filters } = parse({
      name: ['eq.a.b (c), d', 'like.Ré*'],
      size: ['gte.3', 'lt.10', 'in.(1,2,3)'],
      price_cents: ['neq.9007199254740991'],
      weight: ['gt.1.5'],
      active: ['is.true'],
      due_on: ['lte.2026-02-28'],
      seen_at: ['gt.2026-11-22T10:00:00Z'],
      kind: ['in.(a,b)'],
      owner_id: ['is.null'],
    });
    expect(filters).toContainEqual({ field: 'name', op: 'eq', value: 'a.b (c), d' });
    expect(filters).toContainEqual({ field: 'name', op: 'like', value: 'Ré%' });
    expect(filters).toContainEqual({ field: 'size', op: 'in', values: ['1', '2', '3'] });
    expect(filters).toContainEqual({ field: 'weight', op: 'gt', value: '1.5' });
    expect(filters).toContainEqual({ field: 'active', op: 'is', value: 'true' });
    expect(filters).toContainEqual({ field: 'owner_id', op: 'is', value: 'null' });
    expect(filters).toHaveLength(12);
  });

  it('names unknown fields, unfilterable fields, unknown operators and ill-typed values', () => {
    expect(failure({ colour: ['eq.red'] })).toMatchObject({
      field: 'colour',
      reason: 'unknown_field',
    });
    expect(failure({ secret: ['eq.x'] })).toMatchObject({
      field: 'secret',
      reason: 'not_filterable',
    });
    expect(failure({ size: ['like.3'] })).toMatchObject({
      field: 'size',
      operator: 'like',
      reason: 'unknown_operator',
    });
    expect(failure({ name: ['between.a'] })).toMatchObject({ operator: 'between' });
    expect(failure({ size: ['eq.three'] })).toMatchObject({
      field: 'size',
      value: 'three',
      reason: 'invalid_value',
    });
    expect(failure({ size: ['eq.99999999999'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ due_on: ['eq.2026-02-30'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ seen_at: ['eq.yesterday'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ kind: ['eq.c'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ owner_id: ['eq.not-a-uuid'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ active: ['eq.yes'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ name: ['is.true'] })).toMatchObject({ reason: 'invalid_value' });
    expect(failure({ size: ['in.1,2'] })).toMatchObject({ reason: 'invalid_list' });
    expect(failure({ size: ['in.(1,x)'] })).toMatchObject({ value: 'x' });
    expect(failure({ name: ['eq'] })).toMatchObject({ reason: 'invalid_expression' });
  });

  it('orders by sortable fields and always ends with id', () => {
    expect(parse({}).order).toEqual([{ field: 'id', direction: 'desc' }]);
    expect(parse({ order: ['name.asc'] }).order).toEqual([
      { field: 'name', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ]);
    expect(
      parse({ order: ['created_at.desc,name'] }).order.map((t) => `${t.field}.${t.direction}`),
    ).toEqual(['created_at.desc', 'name.asc', 'id.asc']);
    expect(failure({ order: ['size.asc'] })).toMatchObject({
      field: 'size',
      reason: 'not_sortable',
    });
    expect(failure({ order: ['name.up'] })).toMatchObject({ reason: 'invalid_direction' });
    expect(failure({ order: ['nope.asc'] })).toMatchObject({ reason: 'unknown_field' });
  });
});

describe('in-lists', () => {
  it('splits on commas outside double quotes and unescapes inside them', () => {
    expect(parseList('(a,b)')).toEqual(['a', 'b']);
    expect(parseList('("a,b","c (d)",e.f)')).toEqual(['a,b', 'c (d)', 'e.f']);
    expect(parseList('("say \\"hi\\"","back\\\\slash")')).toEqual(['say "hi"', 'back\\slash']);
    expect(parseList('()')).toEqual([]);
    expect(parseList('(a,)')).toEqual(['a', '']);
    expect(parseList('(日本,é)')).toEqual(['日本', 'é']);
    for (const bad of ['a,b', '(a', '("a)', '("a"b)', '(a"b)']) expect(parseList(bad)).toBeNull();
  });
});

describe('like patterns', () => {
  it('turns * into % and keeps escapes', () => {
    expect(likePattern('Ré*')).toBe('Ré%');
    expect(likePattern('star\\**')).toBe('star*%');
    expect(likePattern('100\\%*')).toBe('100\\%%');
    expect(likePattern('a_b')).toBe('a_b');
  });
});
