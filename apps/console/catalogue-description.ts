/**
 * The registry (@erp/contract) reduced to what the records browser needs: module, name, path,
 * fields (type, required, enum values, reference target, filterable, sortable, read-only),
 * lifecycle actions and states, and each field type's list operators.
 */
import { catalogue, FIELD_TYPES, type Field, MODULES, type Resource } from '@erp/contract';
import type {
  CatalogueInfo,
  FieldInfo,
  FieldType,
  FilterOperator,
  ResourceInfo,
} from './src/records/catalogue-types';

// The first of these a resource has names its records; else its first required text field.
const LABEL_FIELDS = ['number', 'name', 'code', 'title', 'subject', 'reference', 'email'];

/** The catalogue as the console reads it, resources ordered by module then path. */
export function describeCatalogue(): CatalogueInfo {
  const order = (r: Resource) => MODULES.indexOf(r.module);
  const resources = [...catalogue]
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
      })),
    };
  }
  return info;
}

function describeField(name: string, field: Field, readOnly: boolean): FieldInfo {
  const info: FieldInfo = { name, type: field.type };
  if (field.required) info.required = true;
  if (field.filterable) info.filterable = true;
  if (field.sortable) info.sortable = true;
  if (readOnly) info.readOnly = true;
  if (field.description) info.description = field.description;
  switch (field.type) {
    case 'enum':
      info.values = [...field.values];
      break;
    case 'reference':
      info.ref = field.resource;
      break;
    case 'text':
    case 'email':
      info.maxLength = field.maxLength;
      break;
    case 'integer':
    case 'money':
    case 'decimal':
      if (field.min !== undefined) info.min = field.min;
      if (field.max !== undefined) info.max = field.max;
      break;
    case 'lines':
      info.fields = Object.entries(field.fields).map(([n, f]) => describeField(n, f, false));
      info.maxItems = field.maxItems;
      break;
  }
  return info;
}

function labelField(resource: Resource): string {
  const fields = resource.allFields;
  const named = LABEL_FIELDS.find(
    (name) => fields[name]?.type === 'text' || fields[name]?.type === 'email',
  );
  if (named) return named;
  const text = Object.entries(fields).find(([, f]) => f.type === 'text' && f.required);
  return text?.[0] ?? 'id';
}
