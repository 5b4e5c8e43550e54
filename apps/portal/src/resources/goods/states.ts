import type { Resource } from '@erp/contract';

/**
 * The states a record is in once `action` ran, until it leaves by one of `leaving`: what its
 * lifecycle reaches from the action's target state (settlement states included).
 */
export function statesAfter(
  resource: Resource,
  action: string,
  leaving: readonly string[],
): Set<string> {
  const lifecycle = resource.lifecycle!;
  const start = lifecycle.actions[action]!.to;
  const out = new Set<string>([start]);
  const settlement = lifecycle.settlement;
  for (let grew = true; grew; ) {
    grew = false;
    const next: string[] = [];
    for (const [name, spec] of Object.entries(lifecycle.actions))
      if (!leaving.includes(name) && spec.from.some((s) => out.has(s))) next.push(spec.to);
    if (settlement && out.has(settlement.from)) next.push(settlement.partial, settlement.full);
    for (const s of next)
      if (!out.has(s)) {
        out.add(s);
        grew = true;
      }
  }
  return out;
}
