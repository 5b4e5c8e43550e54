import type { Resource } from '@erp/contract';
import { createTableSql, dropTableSql } from './catalogue-schema/ddl';
import { tableSchema } from './catalogue-schema/model';

/**
 * The SQL creating one resource's table as a generated migration would (catalogue-schema/):
 * for tests that declare a resource of their own. `registry` resolves the resources it refers
 * to (one referring only to itself, or to nothing, needs none).
 */
export function resourceTableSql(
  resource: Resource,
  registry: ReadonlyMap<string, Resource> = new Map(),
): string {
  return createTableSql(resource.table, tableSchema(resource, registry));
}

/** The SQL dropping one resource's table, with the triggers it put on other tables. */
export function resourceDropSql(
  resource: Resource,
  registry: ReadonlyMap<string, Resource> = new Map(),
): string {
  return dropTableSql(resource.table, tableSchema(resource, registry));
}
