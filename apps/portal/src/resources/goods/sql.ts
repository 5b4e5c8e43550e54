import type pg from 'pg';
import { preparedName } from '../statement-name';

/**
 * A goods statement, named: planned once per connection (every shipment runs the same dozen
 * shapes; unnamed, their planning was a third of their cost).
 */
export function named(text: string, values: unknown[]): pg.QueryConfig {
  return { name: preparedName(text), text, values };
}
