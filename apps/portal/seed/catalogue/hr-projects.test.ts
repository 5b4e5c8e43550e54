import { catalogue, referencedResources } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { seedDemo } from '../demo';
import { seedDemoRecords } from '../demo-records';

let portal: Awaited<ReturnType<typeof createTestPortal>>;

/** The hr and projects resources and everything they refer to, in catalogue order. */
function withDependencies(modules: readonly string[]) {
  const byName = new Map(catalogue.map((r) => [r.name, r]));
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const dependency of referencedResources(byName.get(name)!)) visit(dependency);
  };
  for (const r of catalogue) if (modules.includes(r.module)) visit(r.name);
  return catalogue.filter((r) => needed.has(r.name));
}

const PER_RESOURCE = 12;

beforeAll(async () => {
  portal = await createTestPortal();
  const demo = await seedDemo(portal.tdb.db, 'demo password 123');
  await seedDemoRecords(
    portal.deps.tenantDb,
    demo.tenantId,
    withDependencies(['hr', 'projects']),
    PER_RESOURCE,
    [demo.adminId],
  );
}, 120_000);
afterAll(() => portal.tdb.close());

/** Rows breaking a rule: none expected. `table` must hold seeded rows, so the check is not empty. */
async function violations(table: string, query: string): Promise<unknown[]> {
  const { rows } = await portal.tdb.pool.query(`SELECT count(*)::int AS n FROM ${table}`);
  expect(rows[0].n, table).toBe(PER_RESOURCE);
  return (await portal.tdb.pool.query(query)).rows;
}

describe('the demo seed of hr', () => {
  it('hires before anyone leaves, only leavers have a leaving date, and the position is in the department', async () => {
    expect(
      await violations(
        'employees',
        `SELECT employee_number FROM employees e JOIN positions p ON p.id = e.position_id
          WHERE e.leaving_date <= e.hire_date
             OR (e.employment_status = 'left') <> (e.leaving_date IS NOT NULL)
             OR e.department_id IS DISTINCT FROM p.department_id OR e.job_title <> p.name`,
      ),
    ).toEqual([]);
  });

  it('puts leave requests in order, inside their allocation, for its employee and type, within its days', async () => {
    expect(
      await violations(
        'leave_requests',
        `SELECT r.number FROM leave_requests r JOIN leave_allocations a ON a.id = r.allocation_id
          WHERE r.end_date < r.start_date
             OR r.start_date < a.start_date OR r.end_date > a.end_date
             OR r.employee_id <> a.employee_id OR r.leave_type_id <> a.leave_type_id
             OR r.days <= 0 OR r.days > a.days
             OR r.days > (r.end_date - r.start_date + 1)
             OR extract(isodow FROM r.start_date) > 5`,
      ),
    ).toEqual([]);
    const { rows } = await portal.tdb.pool.query(
      'SELECT count(*)::int AS n FROM leave_requests WHERE allocation_id IS NULL',
    );
    expect(rows[0].n).toBe(0);
  });

  it('checks out after checking in, the hours worked agreeing with both, on the day of attendance', async () => {
    expect(
      await violations(
        'attendances',
        `SELECT id FROM attendances
          WHERE check_out <= check_in
             OR (check_in AT TIME ZONE 'Europe/Paris')::date <> attendance_date
             OR abs(worked_hours - (extract(epoch FROM check_out - check_in) / 3600 - break_minutes / 60.0)) > 0.01`,
      ),
    ).toEqual([]);
  });

  it('makes payslips whose gross, deductions and net are their lines’ sums, for their payroll run’s period', async () => {
    expect(
      await violations(
        'payslips',
        `SELECT p.number FROM payslips p JOIN payroll_runs r ON r.id = p.payroll_run_id
          WHERE p.start_date <> r.start_date OR p.end_date <> r.end_date
             OR p.paid_days > p.working_days
             OR p.gross_pay_cents <> (SELECT sum((l->>'amount_cents')::bigint) FROM jsonb_array_elements(p.lines) l WHERE l->>'line_type' = 'earning')
             OR p.total_deductions_cents <> (SELECT sum((l->>'amount_cents')::bigint) FROM jsonb_array_elements(p.lines) l WHERE l->>'line_type' = 'deduction')
             OR p.net_pay_cents <> p.gross_pay_cents - p.total_deductions_cents
             OR p.net_pay_cents <= 0`,
      ),
    ).toEqual([]);
  });

  it('dates contracts, shifts, holidays, openings, applicants, trainings and expenses in order', async () => {
    const checks: [string, string][] = [
      [
        'employment_contracts',
        `SELECT c.number FROM employment_contracts c JOIN employees e ON e.id = c.employee_id
          WHERE c.end_date < c.start_date OR c.start_date <> e.hire_date OR c.trial_period_end_date < c.start_date`,
      ],
      ['shift_assignments', 'SELECT id FROM shift_assignments WHERE end_date < start_date'],
      [
        'holiday_lists',
        `SELECT name FROM holiday_lists h WHERE EXISTS (SELECT FROM jsonb_array_elements(h.holidays) d
          WHERE (d->>'holiday_date')::date NOT BETWEEN h.start_date AND h.end_date)
          OR jsonb_array_length(h.holidays) < 9`,
      ],
      ['job_openings', 'SELECT number FROM job_openings WHERE closing_date < opening_date'],
      [
        'job_applicants',
        `SELECT a.number FROM job_applicants a JOIN job_openings o ON o.id = a.job_opening_id
          WHERE a.application_date < o.opening_date OR a.availability_date < a.application_date
             OR (a.status = 'converti') <> (a.employee_id IS NOT NULL)`,
      ],
      ['training_events', 'SELECT id FROM training_events WHERE end_date < start_date'],
      ['appraisals', 'SELECT number FROM appraisals WHERE employee_id = reviewer_id'],
      [
        'expense_reports',
        `SELECT number FROM expense_reports r WHERE EXISTS (SELECT FROM jsonb_array_elements(r.lines) l
          WHERE (l->>'expense_date')::date > r.report_date)`,
      ],
    ];
    for (const [table, query] of checks) expect(await violations(table, query), table).toEqual([]);
  });
});

describe('the demo seed of projects', () => {
  it('ends projects after they start, and puts milestones before the project end', async () => {
    expect(
      await violations(
        'projects',
        `SELECT code FROM projects WHERE end_date <= start_date
            OR (billing_method = 'non_billable') <> (customer_id IS NULL)`,
      ),
    ).toEqual([]);
    expect(
      await violations(
        'milestones',
        `SELECT m.name FROM milestones m JOIN projects p ON p.id = m.project_id
          WHERE m.due_date NOT BETWEEN p.start_date AND p.end_date
             OR (m.status = 'termine') <> (m.reached_on IS NOT NULL)`,
      ),
    ).toEqual([]);
  });

  it('schedules tasks inside their project, on its milestones', async () => {
    expect(
      await violations(
        'tasks',
        `SELECT t.number FROM tasks t JOIN projects p ON p.id = t.project_id
           LEFT JOIN milestones m ON m.id = t.milestone_id
          WHERE t.start_date < p.start_date OR t.deadline > p.end_date OR t.deadline < t.start_date
             OR m.project_id <> t.project_id`,
      ),
    ).toEqual([]);
  });

  it('logs timesheets on their project’s tasks, inside the project’s and the task’s dates', async () => {
    expect(
      await violations(
        'timesheets',
        `SELECT s.number FROM timesheets s JOIN projects p ON p.id = s.project_id
           JOIN tasks t ON t.id = s.task_id
          WHERE t.project_id <> s.project_id
             OR s.work_date NOT BETWEEN p.start_date AND p.end_date
             OR s.work_date NOT BETWEEN t.start_date AND t.deadline
             OR (s.invoice_id IS NOT NULL AND (SELECT customer_id FROM invoices WHERE id = s.invoice_id) <> p.customer_id)
             OR (s.is_billable AND p.billing_method = 'non_billable')
             OR (s.status = 'facture' AND NOT s.is_billable)`,
      ),
    ).toEqual([]);
  });

  it('keeps expenses, issues, risks, deliverables, updates and allocations inside their project', async () => {
    const checks: [string, string][] = [
      [
        'project_expenses',
        `SELECT e.number FROM project_expenses e JOIN projects p ON p.id = e.project_id
           LEFT JOIN tasks t ON t.id = e.task_id LEFT JOIN supplier_invoices i ON i.id = e.supplier_invoice_id
          WHERE e.expense_date NOT BETWEEN p.start_date AND p.end_date OR t.project_id <> e.project_id
             OR i.supplier_id <> e.supplier_id OR (e.status = 'facture' AND NOT e.is_billable)`,
      ],
      [
        'project_issues',
        `SELECT i.number FROM project_issues i JOIN projects p ON p.id = i.project_id
           LEFT JOIN tasks t ON t.id = i.task_id
          WHERE i.reported_on < p.start_date OR t.project_id <> i.project_id OR i.due_date < i.reported_on`,
      ],
      [
        'project_risks',
        `SELECT r.name FROM project_risks r JOIN projects p ON p.id = r.project_id
          WHERE r.identified_on NOT BETWEEN p.start_date AND p.end_date OR r.review_date < r.identified_on`,
      ],
      [
        'deliverables',
        `SELECT d.name FROM deliverables d JOIN projects p ON p.id = d.project_id
           LEFT JOIN milestones m ON m.id = d.milestone_id
          WHERE d.due_date NOT BETWEEN p.start_date AND p.end_date OR m.project_id <> d.project_id
             OR (d.status IN ('livre', 'accepte', 'refuse')) <> (d.delivered_on IS NOT NULL)
             OR (d.status = 'accepte') <> (d.accepted_on IS NOT NULL)`,
      ],
      [
        'project_updates',
        `SELECT u.name FROM project_updates u JOIN projects p ON p.id = u.project_id
          WHERE u.update_date NOT BETWEEN p.start_date AND p.end_date`,
      ],
      [
        'resource_allocations',
        `SELECT a.id FROM resource_allocations a JOIN projects p ON p.id = a.project_id
           LEFT JOIN tasks t ON t.id = a.task_id
          WHERE a.end_date < a.start_date OR a.start_date < p.start_date OR a.end_date > p.end_date
             OR t.project_id <> a.project_id`,
      ],
      [
        'project_budgets',
        `SELECT b.number FROM project_budgets b WHERE EXISTS (SELECT FROM jsonb_array_elements(b.lines) l
          WHERE l ? 'quantity' AND l ? 'unit_cost_cents'
            AND (l->>'amount_cents')::numeric <> (l->>'quantity')::numeric * (l->>'unit_cost_cents')::numeric)`,
      ],
    ];
    for (const [table, query] of checks) expect(await violations(table, query), table).toEqual([]);
  });
});
