import type { ApiError } from '@erp/sdk';
import { Link } from 'wouter';
import { describeError } from '../api/errors';
import { failedRules, newSupplierLink, ruleText, unknownSupplier } from './einvoice';

/**
 * Why the portal refused an e-invoice, announced at once (role=alert): its message, the EN 16931
 * rules that failed (id in bold, then what the rule says), or the seller no supplier matches,
 * with the way to create it. Any other error reads as the usual banner does.
 */
export function EInvoiceRefusal({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  const rules = failedRules(error);
  const supplier = unknownSupplier(error);
  return (
    <div className="alert alert-error einvoice-refusal" role="alert">
      <p>{describeError(error)}</p>
      {supplier ? (
        <p>
          The seller, <strong>{supplier.name}</strong>
          {supplier.vat_number ? ` (VAT number ${supplier.vat_number})` : ''}
          {!supplier.vat_number && supplier.registration_number
            ? ` (SIREN or SIRET ${supplier.registration_number})`
            : ''}
          , is none of your suppliers.{' '}
          <Link href={newSupplierLink(supplier)}>Create the supplier {supplier.name}</Link>, then
          import the file again.
        </p>
      ) : null}
      {rules.length ? (
        <>
          <p>
            {rules.length === 1 ? 'The rule' : `The ${rules.length} rules`} of EN 16931 it fails:
          </p>
          <ul className="einvoice-rules">
            {rules.map((rule) => (
              <li key={rule.id}>
                <strong>{rule.id}</strong> {ruleText(rule)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="alert-code">
        <code>{error.code}</code>
      </p>
    </div>
  );
}
