import { useEffect, useState } from 'react';
import { isAdmin, useMe } from '../api/auth';
import { client, raw } from '../api/client';
import type { ControlProps } from '../ui/field';
import { type Catalogue, canRead, recordLabel, resourceTitle } from './catalogue';
import type { FieldInfo } from './catalogue-types';
import { rememberLabel, useReferenceLabels } from './reference-labels';

interface Option {
  id: string;
  label: string;
}
const PAGE = 50;

/**
 * A reference as a select of the target's records, narrowed by a search on the target's label
 * field (`name=ilike.*term*`). A target the caller cannot read is typed as an id.
 */
export function ReferenceInput({
  catalogue,
  field,
  value,
  onChange,
  control,
}: {
  catalogue: Catalogue;
  field: FieldInfo;
  value: string;
  onChange(value: string): void;
  control: ControlProps;
}) {
  const me = useMe();
  const target = field.ref ? catalogue.byName.get(field.ref) : undefined;
  const readable = target ? canRead(me, target.module) : field.ref === 'user' && isAdmin(me);
  const [term, setTerm] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const current = useReferenceLabels(
    catalogue,
    target && value ? [{ target: target.name, ids: [value] }] : [],
  );

  useEffect(() => {
    if (!readable) return;
    const controller = new AbortController();
    const timer = setTimeout(
      async () => {
        if (!target) {
          const users = await client.get('/api/v1/settings/users', { signal: controller.signal });
          setOptions(
            // A reference names an account: pending invitations (their own ids) are not one yet.
            (users.data?.data ?? [])
              .filter((u) => u.status === 'active')
              .map((u) => ({ id: u.id, label: `${u.name} (${u.email})` })),
          );
          return;
        }
        const labelField = target.fields.find((f) => f.name === target.label);
        const query: Record<string, string | number> = { page_size: PAGE };
        if (labelField?.sortable) query.order = `${labelField.name}.asc`;
        if (
          term.trim() &&
          labelField?.filterable &&
          catalogue.operators[labelField.type].includes('ilike')
        )
          query[labelField.name] = `ilike.*${term.trim().replace(/\*/g, '\\*')}*`;
        const answer = await raw.get(`/api/v1/${target.path}`, {
          query,
          signal: controller.signal,
        });
        const rows = (answer.data as { data?: Record<string, unknown>[] } | undefined)?.data ?? [];
        setOptions(
          rows.map((row) => {
            const label = recordLabel(target, row);
            rememberLabel(target.name, String(row.id), label);
            return { id: String(row.id), label };
          }),
        );
      },
      term ? 250 : 0,
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [readable, target, term]);

  if (!readable) {
    return (
      <input
        {...control}
        value={value}
        onChange={(e) => onChange(e.target.value.trim())}
        placeholder="Record id (UUID)"
        spellCheck={false}
      />
    );
  }
  const shown =
    value && !options.some((o) => o.id === value)
      ? [{ id: value, label: current(target?.name, value) ?? value }, ...options]
      : options;
  const noun = target ? resourceTitle(target).toLowerCase() : 'users';
  return (
    <div className="reference">
      <select {...control} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.required ? `Choose…` : '—'}</option>
        {shown.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
      {target ? (
        <input
          type="search"
          className="reference-search"
          aria-label={`Search ${noun}`}
          placeholder={`Search ${noun}…`}
          value={term}
          onChange={(e) => setTerm(e.target.value)}
        />
      ) : null}
    </div>
  );
}
