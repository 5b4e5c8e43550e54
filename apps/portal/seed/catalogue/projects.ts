import {
  addDays,
  daysBetween,
  earliest,
  latest,
  nextWorkingDay,
  workingDaysBetween,
} from './calendar';
import type { SeedContext, SeededRecord, SeedOverrides } from './context';
import { activeEmployee } from './hr';

type Line = Record<string, unknown>;

const all = (ctx: SeedContext, resource: string): readonly SeededRecord[] =>
  ctx.records.get(resource) ?? [];
const byId = (ctx: SeedContext, resource: string, id: unknown): SeededRecord | undefined =>
  id ? all(ctx, resource).find((r) => r.id === id) : undefined;
/** The records of `resource` that belong to `project`, the k-th of them (cycling), if any. */
function ofProject(
  ctx: SeedContext,
  resource: string,
  project: SeededRecord,
  k = ctx.n,
): SeededRecord | undefined {
  const mine = all(ctx, resource).filter((r) => r.project_id === project.id);
  return mine.length ? mine[k % mine.length] : undefined;
}
/** A project's last day: its planned end, or six months after its start. */
const projectEnd = (p: SeededRecord) => String(p.end_date ?? addDays(String(p.start_date), 180));
/** A day `share` (0–1) of the way through a project. */
function within(project: SeededRecord, share: number): string {
  const start = String(project.start_date);
  return addDays(start, Math.floor(daysBetween(start, projectEnd(project)) * share));
}
const billable = (project: SeededRecord) => project.billing_method !== 'non_billable';

const ACTIVITY_TYPES = [
  { code: 'DEV', name: 'Development', bill: 9_500, cost: 5_200 },
  { code: 'DESIGN', name: 'Design', bill: 8_500, cost: 4_800 },
  { code: 'PM', name: 'Project management', bill: 11_000, cost: 6_000 },
  { code: 'CONSULT', name: 'Consulting', bill: 12_000, cost: 6_500 },
  { code: 'TEST', name: 'Testing', bill: 7_500, cost: 4_200 },
  { code: 'SUPPORT', name: 'Support', bill: 6_500, cost: 3_800 },
  { code: 'TRAINING', name: 'Training', bill: 9_000, cost: 5_000 },
  { code: 'DOC', name: 'Documentation', bill: 6_000, cost: 3_500 },
  { code: 'INSTALL', name: 'Installation', bill: 8_000, cost: 4_500 },
  { code: 'ANALYSIS', name: 'Business analysis', bill: 10_000, cost: 5_500 },
  { code: 'TRAVEL', name: 'Travel time', bill: 5_000, cost: 4_000 },
  { code: 'INTERNAL', name: 'Internal meetings', bill: 0, cost: 4_500, internal: true },
];

const TEMPLATES = [
  {
    code: 'WEB',
    name: 'Website project',
    billing: 'fixed_price',
    tasks: [
      ['Kick-off workshop', 0, 2, '8', 'PM'],
      ['Mock-ups and design', 2, 15, '60', 'DESIGN'],
      ['Development', 15, 45, '200', 'DEV'],
      ['Acceptance testing', 55, 10, '40', 'TEST'],
      ['Go-live', 65, 3, '12', 'INSTALL'],
    ],
  },
  {
    code: 'ERP',
    name: 'ERP rollout',
    billing: 'time_and_materials',
    tasks: [
      ['Process analysis', 0, 20, '80', 'ANALYSIS'],
      ['Configuration', 20, 30, '120', 'CONSULT'],
      ['Data migration', 35, 20, '60', 'DEV'],
      ['User training', 60, 10, '40', 'TRAINING'],
      ['Go-live support', 70, 20, '50', 'SUPPORT'],
    ],
  },
  {
    code: 'AUDIT',
    name: 'Audit mission',
    billing: 'fixed_price',
    tasks: [
      ['Interviews', 0, 10, '30', 'CONSULT'],
      ['Findings report', 10, 10, '24', 'DOC'],
      ['Restitution', 20, 2, '6', 'PM'],
    ],
  },
  {
    code: 'INTERNAL',
    name: 'Internal improvement',
    billing: 'non_billable',
    tasks: [
      ['Scoping', 0, 5, '10', 'INTERNAL'],
      ['Implementation', 5, 40, '80', 'DEV'],
      ['Documentation', 45, 10, '16', 'DOC'],
    ],
  },
] as const;

const PROJECTS = [
  { code: 'WEB-REDESIGN', name: 'Website redesign', template: 'WEB' },
  { code: 'ERP-LYON', name: 'ERP rollout, Lyon plant', template: 'ERP' },
  { code: 'AUDIT-2026', name: 'IT security audit 2026', template: 'AUDIT' },
  { code: 'WMS', name: 'Warehouse scanning', template: 'INTERNAL' },
  { code: 'SHOP-B2B', name: 'B2B web shop', template: 'WEB' },
  { code: 'CRM-MIGR', name: 'CRM migration', template: 'ERP' },
  { code: 'ENERGY', name: 'Energy audit, head office', template: 'AUDIT' },
  { code: 'OFFICE-NANTES', name: 'Office move, Nantes', template: 'INTERNAL' },
  { code: 'PORTAL', name: 'Customer portal', template: 'WEB' },
  { code: 'BI', name: 'Sales dashboards', template: 'ERP' },
  { code: 'ISO-9001', name: 'ISO 9001 certification', template: 'AUDIT' },
  { code: 'ONBOARDING', name: 'Onboarding programme', template: 'INTERNAL' },
];

const STAGES = [
  { name: 'To do', sequence: 10, closed: false },
  { name: 'In progress', sequence: 20, closed: false },
  { name: 'Blocked', sequence: 25, closed: false },
  { name: 'In review', sequence: 30, closed: false },
  { name: 'Done', sequence: 40, closed: true },
  { name: 'Cancelled', sequence: 50, closed: true },
];

const MILESTONES = [
  'Specifications signed off',
  'Design approved',
  'Beta delivered',
  'Go-live',
  'Final acceptance',
];
const DELIVERABLES = [
  'Functional specifications',
  'Design mock-ups',
  'Test report',
  'User guide',
  'Audit report',
  'Training materials',
];
const RISKS: [string, string, string, string][] = [
  ['Key developer leaves mid-project', 'resource', 'low', 'high'],
  ['Customer data arrives late', 'schedule', 'high', 'medium'],
  ['Licence costs rise', 'budget', 'medium', 'medium'],
  ['Legacy system has no API', 'technical', 'medium', 'high'],
  ['Scope grows during the workshops', 'schedule', 'high', 'high'],
  ['GDPR review blocks the migration', 'legal', 'low', 'critical'],
  ['Supplier delivers hardware late', 'external', 'medium', 'medium'],
];
const ISSUES: [string, string, string][] = [
  ['Payment page fails on Safari', 'bug', 'high'],
  ['Add a second delivery address', 'change_request', 'medium'],
  ['Which VAT rate for Swiss customers?', 'question', 'low'],
  ['Test server unreachable', 'blocker', 'critical'],
  ['Import rejects accented names', 'bug', 'medium'],
  ['Customer wants a weekly report', 'change_request', 'low'],
];
const EXPENSES: [string, string, number][] = [
  ['Train Paris–Lyon, workshop', 'TRAIN', 11_800],
  ['Hotel, two nights on site', 'HOTEL', 25_800],
  ['Team lunch with the customer', 'CLIENT-MEALS', 14_200],
  ['Test devices', 'OFFICE', 38_900],
  ['Taxi to the customer', 'TAXI', 3_650],
  ['Technical book', 'TRAINING', 4_900],
];
const HEALTH = ['on_track', 'on_track', 'at_risk', 'on_track', 'off_track', 'on_hold'];

export const projectsSeed: SeedOverrides = {
  activity_type(ctx) {
    const a = ACTIVITY_TYPES[ctx.n % ACTIVITY_TYPES.length]!;
    const round = Math.floor(ctx.n / ACTIVITY_TYPES.length);
    return {
      code: round ? `${a.code}-${round + 1}` : a.code,
      name: round ? `${a.name} (${round + 1})` : a.name,
      billing_rate_cents: a.bill,
      costing_rate_cents: a.cost,
      currency: 'EUR',
      is_billable: !('internal' in a),
    };
  },
  project_template(ctx) {
    const t = TEMPLATES[ctx.n % TEMPLATES.length]!;
    const round = Math.floor(ctx.n / TEMPLATES.length);
    const activities = all(ctx, 'activity_type');
    return {
      code: round ? `${t.code}-${round + 1}` : t.code,
      name: round ? `${t.name} (${round + 1})` : t.name,
      billing_method: t.billing,
      duration_days: Math.max(...t.tasks.map(([, offset, days]) => offset + days)),
      tasks: t.tasks.map(([name, offset, days, hours, activity]) => ({
        name,
        offset_days: offset,
        duration_days: days,
        planned_hours: hours,
        activity_type_id: activities.find((a) => a.code === activity)?.id ?? null,
      })),
    };
  },
  project(ctx) {
    const p = PROJECTS[ctx.n % PROJECTS.length]!;
    const round = Math.floor(ctx.n / PROJECTS.length);
    const template =
      all(ctx, 'project_template').find((t) => t.code === p.template) ??
      ctx.pick('project_template');
    const start = nextWorkingDay(ctx.daysAfter('2025-11-03', ctx.n * 19));
    const days = Number(template.duration_days ?? 90) + 30 + (ctx.n % 4) * 15;
    const internal = template.billing_method === 'non_billable';
    const order = internal ? undefined : ctx.pick('sales_order');
    return {
      code: round ? `${p.code}-${round + 1}` : p.code,
      name: round ? `${p.name} (${round + 1})` : p.name,
      template_id: template.id,
      billing_method: template.billing_method,
      customer_id: order?.customer_id ?? null,
      sales_order_id: order?.id ?? null,
      start_date: start,
      end_date: addDays(start, days),
      budget_cents: (40 + (ctx.n % 6) * 15) * 100_000,
    };
  },
  task_stage(ctx) {
    const s = STAGES[ctx.n % STAGES.length]!;
    // The first round is shared by every project; later ones belong to one project.
    return {
      name: s.name,
      sequence: s.sequence,
      is_closed: s.closed,
      project_id: ctx.n < STAGES.length ? null : ctx.pick('project').id,
    };
  },
  milestone(ctx) {
    const project = ctx.pick('project');
    const due = within(project, [0.35, 0.6, 0.9][ctx.n % 3]!);
    const reached = ctx.status === 'termine';
    return {
      project_id: project.id,
      name: MILESTONES[ctx.n % MILESTONES.length],
      due_date: due,
      reached_on: reached ? addDays(due, -2) : null,
      amount_cents:
        project.billing_method === 'fixed_price'
          ? Math.round(Number(project.budget_cents ?? 0) * 0.3)
          : null,
      invoice_percent: project.billing_method === 'fixed_price' ? '30' : null,
    };
  },
  task(ctx) {
    const project = ctx.pick('project');
    const template = byId(ctx, 'project_template', project.template_id);
    const planned = (template?.tasks as Line[] | undefined)?.[ctx.n % 3];
    const start = earliest(
      addDays(String(project.start_date), Number(planned?.offset_days ?? ctx.n * 5)),
      projectEnd(project),
    );
    const deadline = earliest(
      addDays(start, Number(planned?.duration_days ?? 14)),
      projectEnd(project),
    );
    const stages = all(ctx, 'task_stage').filter(
      (s) => !s.project_id || s.project_id === project.id,
    );
    const milestone = ofProject(ctx, 'milestone', project);
    // Planned tasks are to do, started ones in progress, held ones blocked, finished ones done.
    const step = ['planifie', 'en_cours', 'en_attente', 'termine'].indexOf(String(ctx.status));
    const stageName = ['To do', 'In progress', 'Blocked', 'Done'][Math.max(0, step)];
    const stage = stages.find((s) => s.name === stageName) ?? stages[0];
    return {
      project_id: project.id,
      name: String(planned?.name ?? `Work package ${ctx.n + 1}`),
      parent_task_id: null,
      stage_id: stage?.id ?? null,
      milestone_id: milestone && String(milestone.due_date) >= start ? milestone.id : null,
      priority: ['normal', 'high', 'low', 'urgent', 'normal'][ctx.n % 5],
      start_date: start,
      deadline,
      planned_hours: String(planned?.planned_hours ?? 16 + (ctx.n % 5) * 8),
      progress: String([0, 40, 60, 100][Math.max(0, step)]),
      is_billable: billable(project),
    };
  },
  timesheet(ctx) {
    // An invoiced timesheet is on a billable task.
    const invoiced = ctx.status === 'facture';
    const billableTasks = all(ctx, 'task').filter((t) => t.is_billable);
    const task =
      invoiced && billableTasks.length
        ? billableTasks[ctx.n % billableTasks.length]!
        : ctx.pick('task');
    const project = byId(ctx, 'project', task.project_id) ?? ctx.pick('project');
    const first = String(task.start_date ?? project.start_date);
    const last = String(task.deadline ?? projectEnd(project));
    const day = earliest(nextWorkingDay(addDays(first, ctx.n % 5)), last);
    const activities = all(ctx, 'activity_type').filter((a) => a.is_billable === billable(project));
    const activity = activities.length ? activities[ctx.n % activities.length]! : undefined;
    const invoice =
      invoiced && billable(project)
        ? all(ctx, 'invoice').find((i) => i.customer_id === project.customer_id)
        : undefined;
    return {
      employee_id: activeEmployee(ctx).id,
      project_id: project.id,
      task_id: task.id,
      activity_type_id: activity?.id ?? null,
      work_date: day,
      hours: ['7.5', '4', '6', '3.5', '8', '2'][ctx.n % 6],
      is_billable: billable(project),
      billing_rate_cents: billable(project) ? (activity?.billing_rate_cents ?? 9_000) : null,
      costing_rate_cents: activity?.costing_rate_cents ?? 5_000,
      invoice_id: invoice?.id ?? null,
      description: `${String(task.name)}: ${ctx.faker.lorem.sentence({ min: 3, max: 7 })}`,
    };
  },
  project_member(ctx) {
    const project = ctx.pick('project');
    return {
      project_id: project.id,
      employee_id: activeEmployee(ctx, ctx.n + 1).id,
      role: ['manager', 'member', 'member', 'reviewer', 'stakeholder'][ctx.n % 5],
      allocation_percent: ['100', '50', '80', '20', '10'][ctx.n % 5],
      start_date: project.start_date,
      end_date: projectEnd(project),
      billing_rate_cents: billable(project) ? 8_000 + (ctx.n % 4) * 1_500 : null,
    };
  },
  project_budget(ctx) {
    const project = ctx.pick('project');
    const activities = all(ctx, 'activity_type');
    const expenseAccount = all(ctx, 'account').find((a) => a.account_type === 'expense');
    const labour = [0, 1].map((i) => {
      const activity = activities[(ctx.n + i) % Math.max(activities.length, 1)];
      const hours = 40 + ((ctx.n + i) % 5) * 20;
      const rate = Number(activity?.costing_rate_cents ?? 5_000);
      return {
        category: 'labour',
        description: String(activity?.name ?? 'Labour'),
        activity_type_id: activity?.id ?? null,
        quantity: String(hours),
        unit_cost_cents: rate,
        amount_cents: hours * rate,
      };
    });
    const other = [
      {
        category: 'travel',
        description: 'Travel to the customer',
        quantity: '6',
        unit_cost_cents: 18_000,
      },
      {
        category: 'materials',
        description: 'Test devices and licences',
        quantity: '1',
        unit_cost_cents: 240_000,
      },
    ].map((l) => ({
      ...l,
      account_id: expenseAccount?.id ?? null,
      amount_cents: Number(l.quantity) * l.unit_cost_cents,
    }));
    // Budgets cycle through the projects: a project's second budget is its revision 2.
    const revision = 1 + Math.floor(ctx.n / Math.max(all(ctx, 'project').length, 1));
    return {
      project_id: project.id,
      name: revision === 1 ? 'Initial budget' : `Revised budget ${revision}`,
      revision,
      currency: 'EUR',
      lines: [...labour, ...other],
    };
  },
  project_expense(ctx) {
    // An invoiced expense is on a billable project.
    const billableProjects = all(ctx, 'project').filter(billable);
    const project =
      ctx.status === 'facture' && billableProjects.length
        ? billableProjects[ctx.n % billableProjects.length]!
        : ctx.pick('project');
    const [description, category, amount] = EXPENSES[ctx.n % EXPENSES.length]!;
    const bySupplier = ctx.n % 3 === 2;
    const supplierInvoice = bySupplier ? ctx.pick('supplier_invoice') : undefined;
    return {
      project_id: project.id,
      task_id: ofProject(ctx, 'task', project)?.id ?? null,
      employee_id: bySupplier ? null : activeEmployee(ctx).id,
      supplier_id: supplierInvoice?.supplier_id ?? null,
      supplier_invoice_id: supplierInvoice?.id ?? null,
      expense_category_id:
        all(ctx, 'expense_category').find((c) => c.code === category)?.id ?? null,
      expense_date: nextWorkingDay(within(project, 0.1 + (ctx.n % 5) * 0.15)),
      description,
      amount_cents: amount,
      tax_amount_cents: Math.round(amount * (category === 'OFFICE' ? 0.2 : 0.1)),
      currency: 'EUR',
      is_billable: billable(project),
      receipt_reference: bySupplier ? null : `R-${String(project.code)}-${ctx.n + 1}`,
    };
  },
  project_risk(ctx) {
    const project = ctx.pick('project');
    const [name, category, probability, impact] = RISKS[ctx.n % RISKS.length]!;
    const identified = addDays(String(project.start_date), ctx.n % 10);
    return {
      project_id: project.id,
      name,
      category,
      probability,
      impact,
      identified_on: identified,
      review_date: earliest(addDays(identified, 30), projectEnd(project)),
    };
  },
  project_issue(ctx) {
    const project = ctx.pick('project');
    const task = ofProject(ctx, 'task', project);
    const [name, type, severity] = ISSUES[ctx.n % ISSUES.length]!;
    const reported = nextWorkingDay(
      latest(String(task?.start_date ?? project.start_date), within(project, 0.3)),
    );
    return {
      project_id: project.id,
      task_id: task?.id ?? null,
      name,
      issue_type: type,
      severity,
      reported_on: reported,
      due_date: addDays(reported, severity === 'critical' ? 1 : 7),
    };
  },
  deliverable(ctx) {
    const project = ctx.pick('project');
    const milestone = ofProject(ctx, 'milestone', project);
    const due = String(milestone?.due_date ?? within(project, 0.5));
    // Delivered ones (then accepted or refused) have a delivery day; accepted ones a day too.
    const delivered = ['livre', 'accepte', 'refuse'].includes(String(ctx.status));
    return {
      project_id: project.id,
      milestone_id: milestone?.id ?? null,
      name: DELIVERABLES[ctx.n % DELIVERABLES.length],
      due_date: due,
      delivered_on: delivered ? addDays(due, -3) : null,
      accepted_on: ctx.status === 'accepte' ? addDays(due, 4) : null,
    };
  },
  project_update(ctx) {
    const project = ctx.pick('project');
    const share = [0.15, 0.3, 0.45, 0.6, 0.75, 0.9][ctx.n % 6]!;
    const day = within(project, share);
    return {
      project_id: project.id,
      name: `Status ${day}: ${HEALTH[ctx.n % HEALTH.length]!.replace('_', ' ')}`,
      update_date: day,
      health: HEALTH[ctx.n % HEALTH.length],
      progress: String(Math.round(share * 90)),
    };
  },
  planning_resource(ctx) {
    const machines = ['3D printer', 'Test bench', 'Training room'];
    if (ctx.n % 4 === 3) {
      const machine = machines[Math.floor(ctx.n / 4) % machines.length]!;
      return {
        code: `M-${machine.replace(/\W+/g, '').toUpperCase()}-${ctx.n + 1}`,
        name: machine,
        resource_type: 'machine',
        employee_id: null,
        base_unit: 'hour',
        unit_cost_cents: 2_500,
        unit_price_cents: 6_000,
        currency: 'EUR',
        weekly_capacity_hours: '40',
      };
    }
    const employee = activeEmployee(ctx);
    return {
      code: `R-${String(employee.last_name).replace(/\W+/g, '').toUpperCase()}-${ctx.n + 1}`,
      name: `${String(employee.first_name)} ${String(employee.last_name)}`,
      resource_type: 'person',
      employee_id: employee.id,
      base_unit: 'hour',
      unit_cost_cents: 5_000 + (ctx.n % 4) * 500,
      unit_price_cents: 9_000 + (ctx.n % 4) * 1_000,
      currency: 'EUR',
      weekly_capacity_hours: '35',
    };
  },
  resource_allocation(ctx) {
    const project = ctx.pick('project');
    const task = ofProject(ctx, 'task', project);
    const start = String(task?.start_date ?? project.start_date);
    const end = String(task?.deadline ?? earliest(addDays(start, 14), projectEnd(project)));
    const percent = [100, 50, 80, 40][ctx.n % 4]!;
    const days = Math.max(1, workingDaysBetween(start, end));
    return {
      project_id: project.id,
      task_id: task?.id ?? null,
      planning_resource_id: ctx.pick('planning_resource').id,
      start_date: start,
      end_date: end,
      planned_hours: String((days * 7 * percent) / 100),
      allocation_percent: String(percent),
    };
  },
};
