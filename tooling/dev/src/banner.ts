export interface BannerInput {
  /** Origins, without a trailing slash: the console is the portal's `/`, the pages landing's. */
  portalUrl: string;
  landingUrl: string;
  /** The worker's liveness signal (WORKER_HEALTH_PORT). */
  workerHealthUrl: string;
  /** GET /metrics of portal, landing and worker. */
  metricsUrls: string[];
  databaseUrl: string;
  embedded: boolean;
  /** The embedded server's data directory, as shown. */
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  /** Where the password comes from, shown beside it. */
  passwordSource: string;
}

/** The block `pnpm dev` prints once every app answers: where things are and how to log in. */
export function formatBanner(input: BannerInput): string {
  const body = JSON.stringify({ email: input.adminEmail, password: input.adminPassword });
  const database = input.embedded
    ? `${input.databaseUrl}  (embedded; data in ${input.dataDir})`
    : redactPassword(input.databaseUrl);
  const lines = [
    '',
    '──────────────────────────────────────────────────────────────────────',
    `  Console    ${input.portalUrl}/   (log in as below; rebuilt on change, reload to see it)`,
    `  Pages      ${input.landingUrl}/   (home, pricing, contact, demo, onboarding)`,
    `  Portal     ${input.portalUrl}   (API reference: ${input.portalUrl}/api/v1/docs, OpenAPI: ${input.portalUrl}/api/v1/openapi.json)`,
    `  Landing    ${input.landingUrl}   (proxy: ${input.landingUrl}/api/v1/public/plans, sync: ${input.landingUrl}/api/erp-sync/health)`,
    `  Database   ${database}`,
    `  Worker     ${input.workerHealthUrl}   (webhook deliveries, ERP sync to landing, landing → portal forwarding, e-mails to .data/mail)`,
    `  Metrics    ${input.metricsUrls.join('  ')}   (Prometheus: portal, landing, worker)`,
    '  Tenant     demo',
    `  Admin      ${input.adminEmail}`,
    `  Password   ${input.adminPassword}   (${input.passwordSource})`,
    '',
    '  Log in:',
    `    curl -s ${input.portalUrl}/api/v1/auth/login \\`,
    `      -H 'Content-Type: application/json' -d '${body}'`,
    '  then send `Authorization: Bearer <access_token>` and `X-Tenant: demo`.',
    '  Ctrl-C stops the apps, then PostgreSQL.',
    '──────────────────────────────────────────────────────────────────────',
    '',
  ];
  return lines.join('\n');
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
