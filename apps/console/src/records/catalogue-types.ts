/**
 * The shape of `catalogue.gen.json`, the records browser's view of the registry (written by
 * `codegen.ts` from @erp/contract). The type lists are the contract's own, imported as types
 * only: the console never imports the contract at run time.
 */
import type { FieldType, FilterOperator } from '@erp/contract/fields';

export type { FieldType, FilterOperator } from '@erp/contract/fields';

/** One field; flags are present only when true, so the file stays small. */
export interface FieldInfo {
  name: string;
  type: FieldType;
  required?: true;
  filterable?: true;
  sortable?: true;
  /** Set by the server (id, number, status, totals, timestamps): shown, never sent. */
  readOnly?: true;
  description?: string;
  /** An enum's values. */
  values?: string[];
  /** A reference's target: a resource name, or `user` (a member of the tenant). */
  ref?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  /** The fields of one line of a `lines` field. */
  fields?: FieldInfo[];
  maxItems?: number;
}

export interface ActionInfo {
  name: string;
  from: string[];
  to: string;
  description?: string;
}

export interface LifecycleInfo {
  initial: string;
  /** States in which the record may be edited or deleted. */
  editable: string[];
  states: string[];
  actions: ActionInfo[];
}

export interface ResourceInfo {
  name: string;
  path: string;
  module: string;
  description: string;
  /** The field that names a record in lists, titles and reference pickers. */
  label: string;
  fields: FieldInfo[];
  lifecycle?: LifecycleInfo;
}

export interface CatalogueInfo {
  /** Modules in the product's order. */
  modules: string[];
  /** The list operators of each field type (SPEC §6), from the contract's field-type table. */
  operators: Record<FieldType, FilterOperator[]>;
  resources: ResourceInfo[];
}
