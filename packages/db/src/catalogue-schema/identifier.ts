/** SQL names and literals of the catalogue's DDL: checked names need no quoting. */
const IDENTIFIER = /^[a-z][a-z0-9_]*$/;

/** A checked snake_case name (refuses anything that would need quoting). */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name) || name.length > 63) throw new Error(`not a SQL identifier: ${name}`);
  return name;
}

/** A string as a SQL literal. */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
