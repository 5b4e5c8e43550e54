import { jobs } from '@erp/contract';
import type { JobHelpers } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { buildTaskList, cronItemsFor, type JobHandlers } from './jobs';

describe('the task list built from the job definitions', () => {
  const calls: Array<[string, unknown]> = [];
  const handlers = Object.fromEntries(
    Object.keys(jobs).map((key) => [
      key,
      async (payload: unknown) => {
        calls.push([key, payload]);
      },
    ]),
  ) as unknown as JobHandlers;
  const list = buildTaskList(handlers);
  const helpers = {} as JobHelpers;

  it('has one task per job, by its name', () => {
    expect(Object.keys(list).sort()).toEqual(
      Object.values(jobs)
        .map((j) => j.name)
        .sort(),
    );
  });

  it('hands the handler the parsed payload, and refuses a payload the schema refuses', async () => {
    const id = '0190f2b4-7f00-7000-8000-000000000003';
    await list.webhook_deliver!({ delivery_id: id, attempt: 2, extra: 1 }, helpers);
    expect(calls).toEqual([['webhookDeliver', { delivery_id: id, attempt: 2 }]]);
    await expect(list.webhook_deliver!({ delivery_id: id }, helpers)).rejects.toThrow();
    expect(calls).toHaveLength(1);
  });

  it('schedules with the job’s own options', () => {
    const [item] = cronItemsFor([{ job: jobs.erpSync, match: '*/5 * * * *' }]);
    expect(item).toMatchObject({
      task: 'erp_sync',
      identifier: 'erp_sync',
      options: {
        maxAttempts: 3,
        jobKey: 'erp_sync',
        jobKeyMode: 'replace',
        queueName: 'erp_sync',
        backfillPeriod: 0,
      },
    });
  });
});
