import { checkClientsSurviveRefusals, rawExchange, standardRefusals } from '@erp/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startPlatform } from './platform';

/**
 * A refused request never costs a client its next one (issue 12): two pooled clients, one
 * keep-alive connection each, meet 413, 431 and 400 answers and keep working, on the real
 * processes as an operator runs them.
 */
let platform: Platform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform?.close());

describe('clients survive refusals', () => {
  it('on the portal', async () => {
    const report = await checkClientsSurviveRefusals(
      platform.portalUrl,
      standardRefusals({ post: '/api/v1/auth/refresh', get: '/api/v1/health' }),
      { path: '/api/v1/health', status: 200 },
    );
    console.log(`portal: ${report.requests} requests, ${report.failures.length} failures`);
    expect(report.failures).toEqual([]);
  });

  it('on landing', async () => {
    const report = await checkClientsSurviveRefusals(
      platform.landingUrl,
      standardRefusals({ post: '/api/contact', get: '/api/health' }),
      { path: '/api/health', status: 200 },
    );
    console.log(`landing: ${report.requests} requests, ${report.failures.length} failures`);
    expect(report.failures).toEqual([]);
  });

  it('through the public proxy (the portal refuses, landing relays)', async () => {
    const report = await checkClientsSurviveRefusals(
      platform.landingUrl,
      standardRefusals({ post: '/api/v1/public/plans', get: '/api/v1/public/plans' }),
      { path: '/api/v1/public/plans', status: 200 },
    );
    console.log(`proxy: ${report.requests} requests, ${report.failures.length} failures`);
    expect(report.failures).toEqual([]);
  });

  it.each(['portal', 'landing'] as const)(
    'answers a malformed request to the %s in the error shape',
    async (app) => {
      const port = Number(
        new URL(app === 'portal' ? platform.portalUrl : platform.landingUrl).port,
      );
      const reply = await rawExchange(port, 'GET /x HTTP/1.1\r\nHost: a\r\nNo Colon Here\r\n\r\n');
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toMatch(/\r\nX-Request-Id: /i);
      expect(JSON.parse(reply.split('\r\n\r\n')[1] ?? '')).toMatchObject({
        code: 'requete_invalide',
      });
    },
  );
});
