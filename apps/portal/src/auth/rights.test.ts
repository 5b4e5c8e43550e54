import { ApiError } from '@erp/contract';
import { describe, expect, it } from 'vitest';
import {
  effectiveKeyRights,
  isAdmin,
  requireRight,
  rightsFromRoles,
  scopesOutsideModules,
} from './rights';

const sorted = (s: Set<string>) => [...s].sort();

describe('rights', () => {
  it('admins hold every right of the bought modules plus rules and webhooks', () => {
    expect(sorted(rightsFromRoles(['admin'], ['sales', 'crm']))).toEqual([
      'crm:read',
      'crm:write',
      'rules',
      'sales:read',
      'sales:write',
      'webhooks',
    ]);
    expect(isAdmin(['super-admin'])).toBe(true);
    expect(isAdmin(['sales:editor'])).toBe(false);
  });

  it('module roles apply only to bought modules; editor implies read', () => {
    expect(
      sorted(rightsFromRoles(['sales:editor', 'hr:reader', 'crm:reader'], ['sales', 'crm'])),
    ).toEqual(['crm:read', 'sales:read', 'sales:write']);
  });

  it('a key gets its scopes (write implying read) intersected with its holder’s rights', () => {
    const holder = rightsFromRoles(['sales:reader', 'crm:editor'], ['sales', 'crm']);
    expect(sorted(effectiveKeyRights(['sales:write', 'crm:write', 'webhooks'], holder))).toEqual([
      'crm:read',
      'crm:write',
      'sales:read',
    ]);
  });

  it('flags scopes outside the bought modules', () => {
    expect(
      scopesOutsideModules(['sales:read', 'hr:write', 'rules', 'webhooks'], ['sales']),
    ).toEqual(['hr:write']);
  });

  it('requireRight: module_non_souscrit for unbought modules, acces_refuse for missing rights', () => {
    const caller = { rights: new Set(['sales:read']), modules: ['sales'] };
    expect(() => requireRight(caller, 'sales:read')).not.toThrow();
    const missing = (() => {
      try {
        requireRight(caller, 'sales:write');
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(missing).toMatchObject({
      code: 'acces_refuse',
      status: 403,
      params: { required: 'sales:write' },
    });
    expect(() => requireRight(caller, 'hr:read')).toThrow(
      expect.objectContaining({ code: 'module_non_souscrit', status: 403 }) as never,
    );
    expect(() => requireRight(caller, 'webhooks')).toThrow(ApiError);
  });
});
