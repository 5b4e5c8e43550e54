/**
 * The registry (@erp/contract) reduced to what the records browser needs: module, name, path,
 * fields (type, required, enum values, reference target, filterable, sortable, read-only),
 * lifecycle actions and states, and each field type's list operators.
 */
import {
  type ConversionDeclaration,
  catalogue,
  FIELD_TYPES,
  type Field,
  MODULES,
  type PostingRule,
  type Resource,
  stockViews,
} from '@erp/contract';
import type {
  BooksInfo,
  CatalogueInfo,
  ConversionInfo,
  FieldInfo,
  FieldType,
  FilterOperator,
  LedgerSide,
  PartySideInfo,
  ResourceInfo,
} from './src/records/catalogue-types';
import { kindOf } from './src/records/field-kinds';

// The first of these a resource has names its records (if of a type that names), else its first
// required field of such a type.
const LABEL_FIELDS = ['number', 'name', 'code', 'title', 'subject', 'reference', 'email'];

/** The catalogue as the console reads it, resources ordered by module then path. */
export function describeCatalogue(): CatalogueInfo {
  const order = (r: Resource) => MODULES.indexOf(r.module);
  const resources = [...catalogue, ...stockViews]
    .sort((a, b) => order(a) - order(b) || a.path.localeCompare(b.path))
    .map(describeResource);
  const operators = Object.fromEntries(
    Object.entries(FIELD_TYPES).map(([type, spec]) => [type, [...spec.operators]]),
  ) as Record<FieldType, FilterOperator[]>;
  return { modules: [...MODULES], operators, resources };
}

function describeResource(resource: Resource): ResourceInfo {
  const fields = Object.entries(resource.allFields).map(([name, field]) =>
    describeField(name, field, name in resource.readOnlyFields),
  );
  const info: ResourceInfo = {
    name: resource.name,
    path: resource.path,
    module: resource.module,
    description: resource.description,
    label: labelField(resource),
    fields,
  };
  const { lifecycle } = resource;
  if (lifecycle) {
    info.lifecycle = {
      initial: lifecycle.initial,
      editable: resource.editableStates,
      states: resource.states,
      actions: Object.entries(lifecycle.actions).map(([name, action]) => ({
        name,
        from: [...action.from],
        to: action.to,
        ...(action.description ? { description: action.description } : {}),
        ...(action.stamps === 'posted_at' ? { posts: true as const } : {}),
      })),
      ...(lifecycle.settlement ? { settlement: { ...lifecycle.settlement } } : {}),
    };
  }
  const books = describeBooks(resource);
  if (books) info.books = books;
  if (resource.conversions?.length) info.conversions = resource.conversions.map(describeConversion);
  if (resource.readOnly) info.readOnly = true;
  return info;
}

/**
 * Its part in the books: the role the database keeps, where its entries point back at it (the
 * same for every rule of a resource) and its party when all its rules post one.
 */
function describeBooks(resource: Resource): BooksInfo | undefined {
  const rules = resource.postings ?? [];
  const books: BooksInfo = {};
  if (resource.ledgerRole) books.role = resource.ledgerRole;
  if (rules[0]) books.link = { ...rules[0].link };
  const parties = new Set(rules.map((rule) => rule.party.field));
  if (parties.size === 1) books.party = [...parties][0]!;
  const side = partySide(rules);
  if (side) books.partySide = side;
  return Object.keys(books).length ? books : undefined;
}

/**
 * The side its party's lines post on: one when every rule agrees, else one per value of the
 * field the rules are chosen by (a payment's direction), when those agree.
 */
function partySide(rules: readonly PostingRule[]): PartySideInfo | undefined {
  const sided = rules.flatMap((rule) =>
    rule.legs.filter((leg) => leg.party).map((leg) => ({ when: rule.when, side: leg.side })),
  );
  const sides = new Set(sided.map((s) => s.side));
  if (sides.size === 1) return [...sides][0];
  const field = sided[0]?.when?.field;
  if (!field) return undefined;
  const byValue: Record<string, LedgerSide> = {};
  for (const { when, side } of sided) {
    if (when?.field !== field) return undefined;
    if ((byValue[when.equals] ?? side) !== side) return undefined;
    byValue[when.equals] = side;
  }
  return { field, sides: byValue };
}

function describeConversion(conversion: ConversionDeclaration): ConversionInfo {
  return {
    name: conversion.name,
    route: conversion.name.replace(/_/g, '-'),
    target: conversion.target,
    from: [...conversion.from],
    link: conversion.link,
    counts: conversion.counts,
    ...(conversion.goods ? { goods: true as const } : {}),
  };
}

function describeField(name: string, field: Field, readOnly: boolean): FieldInfo {
  const info: FieldInfo = { name, type: field.type };
  if (field.required) info.required = true;
  if (field.filterable) info.filterable = true;
  if (field.sortable) info.sortable = true;
  if (readOnly) info.readOnly = true;
  if (field.description) info.description = field.description;
  // The options a field carries, whatever its type (each interface of the contract's Field has
  // its own): a new type built from them needs nothing here.
  if ('values' in field) info.values = [...field.values];
  if ('resource' in field) info.ref = field.resource;
  if ('maxLength' in field) info.maxLength = field.maxLength;
  if ('min' in field && field.min !== undefined) info.min = field.min;
  if ('max' in field && field.max !== undefined) info.max = field.max;
  if ('fields' in field) {
    info.fields = Object.entries(field.fields).map(([n, f]) => describeField(n, f, false));
    if (field.readOnly && Object.keys(field.readOnly).length)
      info.lineReadOnly = Object.entries(field.readOnly).map(([n, f]) => describeField(n, f, true));
    info.maxItems = field.maxItems;
  }
  return info;
}

function labelField(resource: Resource): string {
  const fields = resource.allFields;
  const named = LABEL_FIELDS.find((name) => fields[name] && kindOf(fields[name]).names);
  if (named) return named;
  const text = Object.entries(fields).find(([, f]) => kindOf(f).names && f.required);
  return text?.[0] ?? 'id';
}
