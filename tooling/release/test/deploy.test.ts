/**
 * The compose example (`deploy/compose.yaml`) parses and describes the deploy the README
 * promises: PostgreSQL, a one-shot migration from the worker image that every app waits for,
 * N portals, M workers and landing, each image pinned to a version and wired to the others.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const compose = parse(readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service> };

interface Service {
  image: string;
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas: string | number };
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
}

const APPS = ['portal', 'landing', 'worker'] as const;
const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`no service ${name}`);
  return found;
};

describe('deploy/compose.yaml', () => {
  it('runs PostgreSQL, the migration step and the three apps', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['landing', 'migrate', 'portal', 'postgres', 'worker'].sort(),
    );
    expect(service('migrate').image).toMatch(/\/worker:\$\{WORKER_VERSION/);
    expect(service('migrate').command).toEqual(['node', 'dist/migrate.js']);
  });

  it('pins every app image to a version, never latest', () => {
    for (const name of [...APPS, 'migrate']) {
      const image = service(name).image;
      expect(image, name).toMatch(
        /^\$\{REGISTRY[^}]*\}\/(portal|landing|worker):\$\{[A-Z]+_VERSION:\?[^}]*\}$/,
      );
      expect(image, name).not.toContain('latest');
    }
  });

  it('starts no app before the migration step completed', () => {
    for (const name of APPS) {
      expect(service(name).depends_on?.migrate, name).toEqual({
        condition: 'service_completed_successfully',
      });
    }
  });

  it('runs N portals and M workers, and health-checks the apps', () => {
    expect(String(service('portal').deploy?.replicas)).toMatch(/PORTAL_REPLICAS/);
    expect(String(service('worker').deploy?.replicas)).toMatch(/WORKER_REPLICAS/);
    for (const name of ['portal', 'postgres']) {
      expect(service(name).healthcheck?.test, name).toBeDefined();
    }
  });

  it('wires the apps to each other at the paths they serve', () => {
    const worker = service('worker').environment ?? {};
    expect(worker.LANDING_SYNC_URL).toBe('http://landing:3001/api/erp-sync');
    expect(worker.PORTAL_URL).toBe('http://portal:3000');
    expect(service('landing').environment?.PORTAL_URL).toBe('http://portal:3000');
    for (const name of [...APPS, 'migrate']) {
      expect(String(service(name).environment?.DATABASE_URL), name).toMatch(/@postgres:5432\//);
    }
  });

  it('connects no app as the superuser: each app its own role, the migration step the owner', () => {
    const superuser = String(service('postgres').environment?.POSTGRES_USER);
    const userOf = (name: string) =>
      /^postgres:\/\/([^:@/]+):/.exec(String(service(name).environment?.DATABASE_URL))?.[1];
    const users = Object.fromEntries([...APPS, 'migrate'].map((name) => [name, userOf(name)]));
    expect(users).toEqual({
      portal: 'erp_portal',
      landing: 'erp_landing',
      worker: 'erp_worker',
      migrate: 'erp_owner',
    });
    for (const user of Object.values(users)) expect(user).not.toBe(superuser);
    // The roles exist before anything connects: made by the container's first start.
    const volumes = service('postgres').volumes ?? [];
    expect(volumes).toContain(
      './postgres/init-roles.sh:/docker-entrypoint-initdb.d/10-erp-roles.sh:ro',
    );
    expect(volumes).toContain('./postgres/roles.sql:/erp/roles.sql:ro');
    const roles = readFileSync(path.join(ROOT, 'deploy/postgres/roles.sql'), 'utf8');
    const init = readFileSync(path.join(ROOT, 'deploy/postgres/init-roles.sh'), 'utf8');
    expect(init).toContain('-f /erp/roles.sql');
    for (const user of Object.values(users)) expect(roles).toContain(user);
    // Each password the init script reads is one the postgres service is given.
    for (const variable of init.matchAll(/="\$([A-Z_]+)"/g))
      if (!variable[1]!.startsWith('POSTGRES_'))
        expect(service('postgres').environment, variable[1]).toHaveProperty(variable[1]!);
  });
});
