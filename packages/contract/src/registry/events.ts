import type { Resource } from './define';
import { resourceNoun } from './prose';

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
    for (const name of r.eventNames) {
      const action = name.slice(r.name.length + 1);
      events.push({
        name,
        description: eventDescription(r.name, action),
        resource: r.name,
        action,
      });
    }
  }
  return events;
}

/** What an event of a resource says it is, in the catalogue, the OpenAPI webhooks and the console. */
export function eventDescription(resourceName: string, action: string): string {
  const subject = resourceNoun(resourceName, true);
  if (action === 'created') return `${subject} was created.`;
  if (action === 'status_changed')
    return `${subject} changed status (\`data.previous_status\` → \`data.object.status\`).`;
  return `${subject}: ${action.replace(/_/g, ' ')}.`;
}
