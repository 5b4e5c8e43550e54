/**
 * The portal as dist/main.js composes it, with the doubled catalogue and the OpenAPI document
 * the benchmark generated for it (OPENAPI_FILE): what start-up and memory would be at twice the
 * resources. Bundled by the startup benchmark exactly as the portal is (tsup, npm external).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openDatabase } from '@erp/db';
import { serveApp } from '@erp/http';
import { createLogger } from '@erp/logger';
import { createSecretBox } from '@erp/webhooks';
import { buildApp } from '../../../apps/portal/src/app';
import { createTokenSigner, generateSigningKeys } from '../../../apps/portal/src/auth';
import { parseEnv } from '../../../apps/portal/src/env';
import { createPortalMetrics } from '../../../apps/portal/src/http/metrics';
import { createTenantDatabase } from '../../../apps/portal/src/resources';
import { resolveHostAddresses } from '../../../apps/portal/src/webhooks';
import { doubledCatalogue } from './doubled-catalogue';

const env = parseEnv(process.env);
const documentFile = process.env.OPENAPI_FILE!;
const database = openDatabase({ url: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE });
const keys = await generateSigningKeys();
const tenantDb = createTenantDatabase({ url: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE });
const app = buildApp(
  {
    db: database.db,
    pool: database.pool,
    tenantDb,
    env,
    logger: createLogger(env.LOG_LEVEL, 'portal'),
    metrics: createPortalMetrics({ pools: { main: database.pool, tenant: tenantDb.pool } }),
    tokens: await createTokenSigner(keys.privateKey, keys.publicKey),
    apiKeyHashSecret: randomBytes(32),
    secretBox: createSecretBox(randomBytes(32).toString('hex')),
    resolveHost: resolveHostAddresses,
    now: () => new Date(),
  },
  doubledCatalogue(),
  // Read when asked, as the real portal reads its committed document.
  () => readFileSync(documentFile),
);
await serveApp({ fetch: app.fetch, port: env.PORTAL_PORT, host: env.PORTAL_HOST });
