import { type Field, fieldType, type Resource, USER } from '@erp/contract';
import { referencesSql } from './reference-ddl';

const IDENTIFIER = /^[a-z][a-z0-9_]*$/;

/**
 * The SQL creating one resource's table: system columns, declared fields, totals, version and
 * timestamps; same-tenant composite foreign keys; indexes; row-level security; grants to
 * `erp_app`; then `referencesSql` (users must be members, line items' references checked).
 * `registry` resolves referenced resources to their tables (a resource referring only to
 * itself, or to nothing, needs none).
 */
export function resourceTableSql(
  resource: Resource,
  registry: ReadonlyMap<string, Resource> = new Map(),
): string {
  const table = identifier(resource.table);
  const columns = ['id uuid PRIMARY KEY DEFAULT erp_uuidv7()'];
  columns.push('tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE');
  if (resource.numbering) columns.push('number text NOT NULL');
  if (resource.lifecycle) {
    columns.push(
      `status text NOT NULL DEFAULT ${literal(resource.lifecycle.initial)} CHECK (status IN (${resource.states.map(literal).join(', ')}))`,
    );
  }
  const constraints = ['UNIQUE (tenant_id, id)'];
  if (resource.numbering) constraints.push('UNIQUE (tenant_id, number)');
  const indexed: string[] = [];
  if (resource.lifecycle) indexed.push('status, id');

  for (const [name, field] of Object.entries(resource.fields)) {
    const column = identifier(name);
    columns.push(`${column} ${columnType(column, field)}`);
    if (field.type === 'reference' && field.resource === USER) {
      indexed.push(column); // its foreign key to memberships comes with referencesSql
    } else if (field.type === 'reference') {
      const target = field.resource === resource.name ? resource : registry.get(field.resource);
      if (!target) throw new Error(`${resource.name}.${name}: unknown resource ${field.resource}`);
      constraints.push(
        `FOREIGN KEY (tenant_id, ${column}) REFERENCES ${identifier(target.table)} (tenant_id, id)`,
      );
      indexed.push(column);
    } else if (field.filterable && field.type !== 'text' && field.type !== 'email') {
      indexed.push(column);
    }
  }
  if (resource.totalsFrom) {
    for (const total of ['subtotal_cents', 'tax_cents', 'total_cents'])
      columns.push(`${total} bigint NOT NULL DEFAULT 0`);
  }
  columns.push(
    'version integer NOT NULL DEFAULT 1',
    'created_at timestamptz NOT NULL DEFAULT now()',
    'updated_at timestamptz NOT NULL DEFAULT now()',
  );

  const body = [...columns, ...constraints].map((line) => `  ${line}`).join(',\n');
  const statements = [`CREATE TABLE ${table} (\n${body}\n);`];
  for (const columnList of indexed) {
    const suffix = columnList === 'status, id' ? 'status' : columnList;
    statements.push(
      `CREATE INDEX ${identifier(`${table}_${suffix}`)} ON ${table} (tenant_id, ${columnList});`,
    );
  }
  statements.push(
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;`,
    `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;`,
    `CREATE POLICY tenant_isolation ON ${table}\n  USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO erp_app;`,
  );
  return `${statements.join('\n')}\n${referencesSql(resource, registry)}`;
}

/** The SQL dropping one resource's table (with its indexes, policy and reference triggers). */
export function resourceDropSql(resource: Resource): string {
  const table = identifier(resource.table);
  const fields = Object.values(resource.fields);
  const statements: string[] = [];
  // Functions whose triggers sit on other tables (targets, memberships) go first, with them.
  if (fields.some((f) => f.type === 'reference' && f.resource === USER))
    statements.push(`DROP FUNCTION ${table}_release_member() CASCADE;`);
  const lineRefs = fields.some(
    (f) => f.type === 'lines' && Object.values(f.fields).some((l) => l.type === 'reference'),
  );
  if (lineRefs) statements.push(`DROP FUNCTION ${table}_line_referenced() CASCADE;`);
  statements.push(`DROP TABLE ${table};`);
  if (lineRefs) statements.push(`DROP FUNCTION ${table}_line_references();`);
  return `${statements.join('\n')}\n`;
}

function columnType(column: string, field: Field): string {
  // Lines are never null: a document without lines has an empty list.
  if (field.type === 'lines') return `${fieldType(field).column(field)} NOT NULL DEFAULT '[]'`;
  const check =
    field.type === 'enum' ? ` CHECK (${column} IN (${field.values.map(literal).join(', ')}))` : '';
  return `${fieldType(field).column(field)}${field.required ? ' NOT NULL' : ''}${check}`;
}

/** Names come from checked declarations; refusing anything else keeps the SQL unquoted and safe. */
function identifier(name: string): string {
  if (!IDENTIFIER.test(name) || name.length > 63) throw new Error(`not a SQL identifier: ${name}`);
  return name;
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
