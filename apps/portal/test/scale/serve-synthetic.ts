import { randomBytes } from 'node:crypto';
import { openApiText } from '@erp/contract';
import { buildOpenApiDocument } from '@erp/contract/openapi';
import { openDatabase } from '@erp/db';
import { serveApp } from '@erp/http';
import { createLogger } from '@erp/logger';
import { createSecretBox } from '@erp/webhooks';
import { buildApp } from '../../src/app';
import { createTokenSigner, generateSigningKeys } from '../../src/auth';
import { parseEnv } from '../../src/env';
import { createPortalMetrics } from '../../src/http/metrics';
import { createTenantDatabase } from '../../src/resources';
import { resolveHostAddresses } from '../../src/webhooks';
import { syntheticRegistry } from './synthetic-registry';

/** A portal process serving a registry of RESOURCES synthetic resources; prints its start-up figures. */
const started = performance.now();
const resources = syntheticRegistry(Number(process.env.RESOURCES ?? 200));
const env = parseEnv({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent' });
const database = openDatabase({ url: env.DATABASE_URL, max: 2 });
const keys = await generateSigningKeys();
const tenantDb = createTenantDatabase({ url: env.DATABASE_URL, max: 2 });
const app = buildApp(
  {
    db: database.db,
    pool: database.pool,
    tenantDb,
    env,
    logger: createLogger('silent', 'portal'),
    metrics: createPortalMetrics({ pools: { main: database.pool, tenant: tenantDb.pool } }),
    tokens: await createTokenSigner(keys.privateKey, keys.publicKey),
    apiKeyHashSecret: randomBytes(32),
    secretBox: createSecretBox(randomBytes(32).toString('hex')),
    resolveHost: resolveHostAddresses,
    now: () => new Date(),
  },
  resources,
  // No committed document exists for a synthetic registry: generated on the first request.
  () => openApiText(buildOpenApiDocument(resources)),
);
const server = await serveApp({ fetch: app.fetch, port: 0, host: '127.0.0.1' });
{
  const memory = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ port: server.port, resources: resources.length, routes: app.routes.length, startMs: Math.round(performance.now() - started), rssMb: Math.round(memory.rss / 2 ** 20), heapUsedMb: Math.round(memory.heapUsed / 2 ** 20) })}\n`,
  );
}
process.on('SIGTERM', () =>
  server.close().then(() => database.close().then(() => process.exit(0))),
);
