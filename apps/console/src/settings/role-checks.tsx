import { FieldSet } from '../ui/field';

/** The roles of an invitation or a membership, as checkboxes named `roles`. */
export function RoleChecks({
  roles,
  selected = [],
  error,
  superAdmin,
}: {
  roles: string[];
  selected?: readonly string[];
  error?: string | undefined;
  superAdmin: boolean;
}) {
  return (
    <FieldSet
      legend="Roles"
      error={error}
      hint={
        superAdmin
          ? 'Super-admins and admins hold every right (only a super-admin manages admins); readers and editors one module each.'
          : 'Readers and editors hold one module each. Only a super-admin grants admin roles.'
      }
    >
      <div className="checks">
        {roles.map((role) => (
          <label key={role} className="check">
            <input
              type="checkbox"
              name="roles"
              value={role}
              defaultChecked={selected.includes(role)}
            />
            <span>{role}</span>
          </label>
        ))}
      </div>
    </FieldSet>
  );
}
