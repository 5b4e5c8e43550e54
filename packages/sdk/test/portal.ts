/**
 * The real portal for the sdk's tests: an embedded PostgreSQL of the file's own (throw-away,
 * fsync off), migrated and seeded by the portal's seed script (plans and tenant `demo`), and
 * `apps/portal/src/main.ts` as a child process on 127.0.0.1, as e2e/test/platform.ts starts it.
 * Tenants are provisioned through the internal route, as the SaaS back office does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '@erp/db';
import { findFreePort, startEmbeddedPostgres } from '@erp/db/embedded';
import { type Client, createClient, type Session } from '../src/index';

const PORTAL_DIR = path.resolve(import.meta.dirname, '../../../apps/portal');

export interface RealPortal {
  baseUrl: string;
  /** A tenant on the `business` plan with its admin; `admin` is a client on the admin's session. */
  tenant(
    slug: string,
  ): Promise<{ slug: string; admin: Client; apiKey(scopes: string[]): Promise<Client> }>;
  close(): Promise<void>;
}

export async function startRealPortal(): Promise<RealPortal> {
  const stops: Array<() => Promise<unknown>> = [];
  const close = async () => {
    while (stops.length) await stops.pop()!().catch(() => {});
  };
  try {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'erp-sdk-pg-'));
    stops.push(() => rm(dataDir, { recursive: true, force: true }));
    const pg = await startEmbeddedPostgres({ dataDir, persistent: false, ephemeral: true });
    stops.push(() => pg.stop());
    const handle = openDatabase({ url: pg.url, max: 1 });
    await migrateToLatest(handle).finally(() => handle.close());
    const output: string[] = [];
    await run(
      ['--import', 'tsx', 'seed/main.ts'],
      {
        DATABASE_URL: pg.url,
        SEED_ADMIN_PASSWORD: randomBytes(12).toString('hex'),
      },
      output,
    );

    const port = await findFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const internalApiKey = randomBytes(24).toString('hex');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: PORTAL_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: pg.url,
        PORTAL_HOST: '127.0.0.1',
        PORTAL_PORT: String(port),
        API_KEY_HASH_SECRET: randomBytes(32).toString('hex'),
        SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        SAAS_INTERNAL_API_KEY: internalApiKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    collect(child, output);
    stops.push(() => stop(child));
    await ready(child, `${baseUrl}/api/v1/health`, output);

    const tenant = async (slug: string) => {
      const email = `admin@${slug}.test`;
      const password = randomBytes(12).toString('hex');
      await json(`${baseUrl}/api/v1/internal/tenants`, 201, {
        headers: { 'x-api-key': internalApiKey },
        body: {
          slug,
          name: `Tenant ${slug}`,
          plan_code: 'business',
          admin: { email, name: `Admin ${slug}`, password },
        },
      });
      const { access_token } = (await json(`${baseUrl}/api/v1/auth/login`, 200, {
        body: { email, password, tenant: slug },
      })) as { access_token: string };
      // The admin's session, as the console holds it (no renewal: the test is short).
      const session: Session = {
        accessToken: async () => access_token,
        refresh: async () => false,
      };
      const admin = createClient({ baseUrl, session, tenantId: slug, backoffMs: 1 });
      const apiKey = async (scopes: string[]) => {
        const { data, error } = await admin.post('/api/v1/settings/api-keys', {
          body: {
            name: `sdk ${scopes.join(' ')}`,
            scopes,
            expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          },
        });
        if (error) throw error;
        return createClient({ baseUrl, apiKey: data.key, tenantId: slug, backoffMs: 1 });
      };
      return { slug, admin, apiKey };
    };
    return { baseUrl, tenant, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function collect(child: ChildProcess, output: string[]) {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => output.push(...chunk.split('\n').filter(Boolean)));
  }
}

/** A portal script through tsx, to its end (bounded: 120 s). */
async function run(args: string[], env: Record<string, string>, output: string[]) {
  const child = spawn(process.execPath, args, {
    cwd: PORTAL_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  collect(child, output);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  if (code !== 0)
    throw new Error(`${args.join(' ')}: exit ${code ?? signal}\n${output.slice(-20).join('\n')}`);
}

async function ready(child: ChildProcess, url: string, output: string[]) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the portal exited during start-up:\n${output.slice(-20).join('\n')}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the portal did not start within 60 s:\n${output.slice(-20).join('\n')}`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function json(
  url: string,
  status: number,
  o: { headers?: Record<string, string>; body: unknown },
): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...o.headers },
    body: JSON.stringify(o.body),
  });
  const text = await res.text();
  if (res.status !== status)
    throw new Error(`POST ${new URL(url).pathname}: ${res.status} ${text}`);
  return JSON.parse(text);
}
