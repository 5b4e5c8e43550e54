import type { components } from '@erp/sdk';
import { client } from '../api/client';
import { useLoad } from '../api/use-load';
import { ErrorBanner, Loading } from '../ui/alert';
import { FieldSet } from '../ui/field';
import { humanize } from '../ui/format';

type WebhookEvent = components['schemas']['WebhookEvent'];

/** Checkboxes named `events`, one per event of the catalogue, grouped by resource. */
export function EventPicker({
  selected = [],
  error,
}: {
  selected?: readonly string[];
  error?: string | undefined;
}) {
  const events = useLoad(() => client.get('/api/v1/settings/webhooks/events'), []);
  if (events.error) return <ErrorBanner error={events.error} />;
  if (!events.data) return <Loading what="the event catalogue" />;
  const groups = new Map<string, WebhookEvent[]>();
  for (const event of events.data.data) {
    groups.set(event.resource, [...(groups.get(event.resource) ?? []), event]);
  }
  return (
    <FieldSet legend="Events" error={error} hint="Deliveries are sent for the events ticked here.">
      <div className="event-groups">
        {[...groups].map(([resource, list]) => (
          <fieldset key={resource} className="event-group">
            <legend>{humanize(resource)}</legend>
            {list.map((event) => (
              <label key={event.name} className="check" title={event.description}>
                <input
                  type="checkbox"
                  name="events"
                  value={event.name}
                  defaultChecked={selected.includes(event.name)}
                />
                <code>{event.name}</code>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
    </FieldSet>
  );
}
