// The HEALTHCHECK of every app image (slim images have no curl): node's fetch against the
// app's own route on 127.0.0.1. `node healthcheck.mjs` checks liveness, `node healthcheck.mjs
// ready` readiness (portal and landing: the database answers). Exit 0 = healthy.
const port = (name, fallback) => process.env[name] || fallback;
const routes = {
  portal: { port: port('PORTAL_PORT', '3000'), live: '/api/v1/health', ready: '/api/v1/ready' },
  landing: { port: port('LANDING_PORT', '3001'), live: '/api/health', ready: '/api/ready' },
  worker: { port: port('WORKER_HEALTH_PORT', '3002'), live: '/health', ready: '/health' },
};
const app = routes[process.env.APP ?? ''];
if (!app) {
  process.stderr.write(`healthcheck: APP must be one of ${Object.keys(routes).join(', ')}\n`);
  process.exit(2);
}
const path = process.argv[2] === 'ready' ? app.ready : app.live;
try {
  const response = await fetch(`http://127.0.0.1:${app.port}${path}`, {
    signal: AbortSignal.timeout(4000),
  });
  process.stdout.write(`healthcheck: ${path} ${response.status}\n`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  process.stdout.write(`healthcheck: ${path} ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
}
