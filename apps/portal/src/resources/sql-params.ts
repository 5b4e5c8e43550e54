import { uuidv7 } from '@erp/db';

/**
 * Collects positional parameters while SQL text is built. A parameter may carry the name of
 * what the client sent it as (a field, `cursor`), so an error PostgreSQL reports on `$n` can
 * name it.
 */
export class Params {
  readonly values: unknown[] = [];
  private readonly labels = new Map<number, string>();
  private base: string | undefined;
  add(value: unknown, cast?: string, label?: string): string {
    this.values.push(value);
    if (label) this.labels.set(this.values.length, label);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
  /**
   * The statement's UUIDv7 (`$n::uuid`), named once: the record it creates takes it, its other
   * rows `erp_uuid_offset(base, n)`, so the statement calls no volatile function (SPEC §19).
   */
  idBase(): string {
    this.base ??= this.add(uuidv7(), 'uuid');
    return this.base;
  }
  /** What parameter `$n` stands for, if it was named. */
  labelOf(n: number): string | undefined {
    return this.labels.get(n);
  }
}

/** The label of cursor parameters. */
export const CURSOR = 'cursor';
