export interface BannerInput {
  portalUrl: string;
  landingUrl: string;
  databaseUrl: string;
  embedded: boolean;
  adminEmail: string;
  adminPassword: string;
  /** Where the password comes from, shown beside it. */
  passwordSource: string;
}

/** The block `pnpm dev` prints once the portal answers: where things are and how to log in. */
export function formatBanner(input: BannerInput): string {
  const body = JSON.stringify({ email: input.adminEmail, password: input.adminPassword });
  const database = input.embedded
    ? `${input.databaseUrl}  (embedded; data in .data/postgres)`
    : redactPassword(input.databaseUrl);
  const lines = [
    '',
    '──────────────────────────────────────────────────────────────────────',
    `  Portal     ${input.portalUrl}   (OpenAPI: ${input.portalUrl}/api/v1/openapi.json)`,
    `  Landing    ${input.landingUrl}   (proxy: ${input.landingUrl}/api/v1/public/plans, sync: ${input.landingUrl}/api/erp-sync/health)`,
    `  Database   ${database}`,
    '  Worker     webhook deliveries, ERP sync to landing, landing → portal forwarding (graphile-worker)',
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

/** Polls the portal's health route until it answers 200 or `stillWaiting` says stop. */
export async function waitForPortal(
  portalUrl: string,
  stillWaiting: () => boolean,
  timeoutMs = 60_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (stillWaiting() && Date.now() < deadline) {
    try {
      const response = await fetch(`${portalUrl}/api/v1/health`);
      if (response.ok) return true;
    } catch {
      // Not listening yet: tsx is still compiling the app.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
