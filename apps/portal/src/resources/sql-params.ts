/**
 * Collects positional parameters while SQL text is built. A parameter may carry the name of
 * what the client sent it as (a field, `cursor`), so an error PostgreSQL reports on `$n` can
 * name it.
 */
export class Params {
  readonly values: unknown[] = [];
  private readonly labels = new Map<number, string>();
  add(value: unknown, cast?: string, label?: string): string {
    this.values.push(value);
    if (label) this.labels.set(this.values.length, label);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
  /** What parameter `$n` stands for, if it was named. */
  labelOf(n: number): string | undefined {
    return this.labels.get(n);
  }
}

/** The label of cursor parameters. */
export const CURSOR = 'cursor';
