import type { Resource } from './define';

export interface CatalogueEvent {
  name: string;
  description: string;
  resource: string;
  action: string;
}

/** The event catalogue derived from the registry: what each resource's changes record. */
export function eventCatalogue(resources: Iterable<Resource>): CatalogueEvent[] {
  const events: CatalogueEvent[] = [];
  for (const r of resources) {
    const label = r.name.replace(/_/g, ' ');
    for (const name of r.eventNames) {
      const action = name.slice(r.name.length + 1);
      const description =
        action === 'created'
          ? `A ${label} was created.`
          : action === 'status_changed'
            ? `A ${label} changed status (\`data.previous_status\` → \`data.object.status\`).`
            : `A ${label}: ${action.replace(/_/g, ' ')}.`;
      events.push({ name, description, resource: r.name, action });
    }
  }
  return events;
}
