import {
  addDays,
  addWorkingDays,
  earliest,
  monthBounds,
  nextWorkingDay,
  publicHolidays,
  workingDaysBetween,
} from './calendar';
import type { SeedContext, SeededRecord, SeedOverrides } from './context';

type Line = Record<string, unknown>;

/** The records of a resource already made (empty when the resource was not seeded). */
const all = (ctx: SeedContext, resource: string): readonly SeededRecord[] =>
  ctx.records.get(resource) ?? [];
const byId = (ctx: SeedContext, resource: string, id: unknown): SeededRecord | undefined =>
  id ? all(ctx, resource).find((r) => r.id === id) : undefined;
/** The n-th entry of a curated list; past its end, the same entries again with a suffix. */
function cycle<T extends { code?: string; name: string }>(list: readonly T[], n: number): T {
  const entry = list[n % list.length]!;
  const round = Math.floor(n / list.length);
  if (round === 0) return entry;
  return {
    ...entry,
    name: `${entry.name} (${round + 1})`,
    ...(entry.code ? { code: `${entry.code}-${round + 1}` } : {}),
  };
}
const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
/** Public holidays of an employee's holiday list, to leave out of working days. */
function holidaysOf(ctx: SeedContext, employee: SeededRecord | undefined): Set<string> {
  const list = byId(ctx, 'holiday_list', employee?.holiday_list_id);
  return new Set(((list?.holidays as Line[] | undefined) ?? []).map((h) => String(h.holiday_date)));
}
const toCents = (value: number) => Math.round(value);
/** An employee still working for the tenant: leave, attendance and pay are theirs, not leavers'. */
export function activeEmployee(ctx: SeedContext, k = ctx.n): SeededRecord {
  const active = all(ctx, 'employee').filter((e) => e.employment_status !== 'left');
  return active.length ? active[k % active.length]! : ctx.pick('employee', k);
}

const DEPARTMENTS = [
  { code: 'MGT', name: 'General management', job: 'Managing director' },
  { code: 'FIN', name: 'Finance', job: 'Accountant' },
  { code: 'PUR', name: 'Purchasing', job: 'Buyer' },
  { code: 'SAL', name: 'Sales', job: 'Sales representative' },
  { code: 'MKT', name: 'Marketing', job: 'Marketing manager' },
  { code: 'HR', name: 'Human resources', job: 'HR officer' },
  { code: 'IT', name: 'Information systems', job: 'Developer' },
  { code: 'PRD', name: 'Production', job: 'Machine operator' },
  { code: 'LOG', name: 'Logistics', job: 'Warehouse operator' },
  { code: 'QUA', name: 'Quality', job: 'Quality engineer' },
  { code: 'RND', name: 'Research and development', job: 'R&D engineer' },
  { code: 'CS', name: 'Customer service', job: 'Customer service agent' },
];

const HOLIDAY_COUNTRIES = [
  ['FR', 'France'],
  ['BE', 'Belgique'],
  ['DE', 'Deutschland'],
] as const;

const SHIFTS = [
  { code: 'DAY', name: 'Day shift', start: '8.5', end: '17', break: 60, night: false },
  { code: 'EARLY', name: 'Early shift', start: '6', end: '14', break: 30, night: false },
  { code: 'LATE', name: 'Late shift', start: '14', end: '22', break: 30, night: false },
  { code: 'NIGHT', name: 'Night shift', start: '22', end: '6', break: 30, night: true },
  { code: 'FLEX', name: 'Flexible day', start: '9.5', end: '18', break: 60, night: false },
  {
    code: 'HALF-AM',
    name: 'Mornings (part time)',
    start: '8.5',
    end: '12.5',
    break: 0,
    night: false,
  },
];

const LEAVE_TYPES = [
  {
    code: 'CP',
    name: 'Paid holiday',
    kind: 'paid',
    paid: true,
    alloc: true,
    unit: 'day',
    accrual: '2.08',
    carry: '5',
    days: 25,
  },
  {
    code: 'RTT',
    name: 'Reduced working time (RTT)',
    kind: 'compensatory',
    paid: true,
    alloc: true,
    unit: 'half_day',
    carry: '0',
    days: 10,
  },
  { code: 'MAL', name: 'Sick leave', kind: 'sick', paid: true, alloc: false, unit: 'day' },
  { code: 'SS', name: 'Unpaid leave', kind: 'unpaid', paid: false, alloc: false, unit: 'day' },
  {
    code: 'MAT',
    name: 'Maternity leave',
    kind: 'parental',
    paid: true,
    alloc: false,
    unit: 'day',
    max: 112,
  },
  {
    code: 'PAT',
    name: 'Paternity leave',
    kind: 'parental',
    paid: true,
    alloc: false,
    unit: 'day',
    max: 25,
  },
  {
    code: 'FORM',
    name: 'Training leave',
    kind: 'training',
    paid: true,
    alloc: true,
    unit: 'day',
    days: 5,
  },
  {
    code: 'FAM',
    name: 'Family event',
    kind: 'other',
    paid: true,
    alloc: false,
    unit: 'day',
    max: 4,
  },
  {
    code: 'ANC',
    name: 'Seniority days',
    kind: 'paid',
    paid: true,
    alloc: true,
    unit: 'day',
    days: 2,
  },
  {
    code: 'CET',
    name: 'Time savings account',
    kind: 'paid',
    paid: true,
    alloc: true,
    unit: 'day',
    days: 8,
  },
  {
    code: 'ENF',
    name: 'Sick child',
    kind: 'other',
    paid: false,
    alloc: false,
    unit: 'half_day',
    max: 3,
  },
  {
    code: 'REC',
    name: 'Overtime recovery',
    kind: 'compensatory',
    paid: true,
    alloc: true,
    unit: 'hour',
    days: 3,
  },
];

const SALARY_COMPONENTS = [
  { code: 'BASE', name: 'Base salary', type: 'earning', calc: 'fixed', taxable: true },
  { code: 'OVERTIME', name: 'Overtime', type: 'earning', calc: 'hours_based', taxable: true },
  {
    code: 'BONUS',
    name: 'Performance bonus',
    type: 'earning',
    calc: 'fixed',
    amount: 20_000,
    taxable: true,
  },
  {
    code: 'TRANSPORT',
    name: 'Public transport allowance',
    type: 'earning',
    calc: 'fixed',
    amount: 4_320,
    taxable: false,
  },
  {
    code: 'CSG',
    name: 'CSG (deductible and not)',
    type: 'deduction',
    calc: 'percent_of_gross',
    rate: '9.2',
    taxable: false,
  },
  {
    code: 'CRDS',
    name: 'CRDS',
    type: 'deduction',
    calc: 'percent_of_gross',
    rate: '0.5',
    taxable: false,
  },
  {
    code: 'VIEILLESSE',
    name: 'Old-age insurance',
    type: 'deduction',
    calc: 'percent_of_gross',
    rate: '6.9',
    taxable: false,
  },
  {
    code: 'RETRAITE',
    name: 'Supplementary pension (Agirc-Arrco)',
    type: 'deduction',
    calc: 'percent_of_gross',
    rate: '4.01',
    taxable: false,
  },
  {
    code: 'MUTUELLE',
    name: 'Health insurance (employee share)',
    type: 'deduction',
    calc: 'fixed',
    amount: 4_500,
    taxable: false,
  },
  {
    code: 'EMP-MALADIE',
    name: 'Health insurance (employer)',
    type: 'employer_contribution',
    calc: 'percent_of_gross',
    rate: '13',
    taxable: false,
  },
  {
    code: 'EMP-VIEILLESSE',
    name: 'Old-age insurance (employer)',
    type: 'employer_contribution',
    calc: 'percent_of_gross',
    rate: '8.55',
    taxable: false,
  },
  {
    code: 'EMP-CHOMAGE',
    name: 'Unemployment insurance (employer)',
    type: 'employer_contribution',
    calc: 'percent_of_gross',
    rate: '4.05',
    taxable: false,
  },
];

const STRUCTURES = [
  { code: 'NON-CADRES', name: 'Non-executives, monthly' },
  { code: 'CADRES', name: 'Executives, monthly' },
  { code: 'APPRENTIS', name: 'Apprentices, monthly' },
  { code: 'STAGIAIRES', name: 'Interns, monthly' },
];

const CONTRACT_TYPES = [
  'permanent',
  'permanent',
  'fixed_term',
  'permanent',
  'apprenticeship',
  'internship',
];

const SKILLS = [
  { name: 'Excel', type: 'tool', training: 'Excel for finance teams' },
  { name: 'English', type: 'language', training: 'Business English' },
  { name: 'Spanish', type: 'language', training: 'Spanish for sales' },
  { name: 'German', type: 'language', training: 'German, intermediate' },
  { name: 'Negotiation', type: 'soft', training: 'Negotiating with suppliers' },
  { name: 'People management', type: 'soft', training: 'Management essentials' },
  { name: 'First aid at work (SST)', type: 'certification', training: 'First aid at work (SST)' },
  {
    name: 'Forklift licence (CACES R489)',
    type: 'certification',
    training: 'Forklift licence (CACES R489)',
  },
  { name: 'Power BI', type: 'tool', training: 'Power BI dashboards' },
  { name: 'SQL', type: 'technical', training: 'SQL for analysts' },
  { name: 'Lean manufacturing', type: 'technical', training: 'Lean basics on the shop floor' },
  { name: 'GDPR', type: 'certification', training: 'GDPR awareness' },
];

const EXPENSE_CATEGORIES = [
  { code: 'TRAIN', name: 'Train tickets', max: 40_000, receipt: true },
  { code: 'AIR', name: 'Air travel', max: 80_000, receipt: true },
  { code: 'HOTEL', name: 'Hotel', max: 18_000, receipt: true },
  { code: 'MEALS', name: 'Meals', max: 2_500, receipt: true },
  { code: 'CLIENT-MEALS', name: 'Customer meals', max: 12_000, receipt: true },
  { code: 'TAXI', name: 'Taxi and ride-hailing', max: 8_000, receipt: true },
  { code: 'FUEL', name: 'Fuel', max: 12_000, receipt: true },
  { code: 'MILEAGE', name: 'Mileage allowance', max: 50_000, receipt: false },
  { code: 'PARKING', name: 'Parking and tolls', max: 6_000, receipt: true },
  { code: 'OFFICE', name: 'Office supplies', max: 10_000, receipt: true },
  { code: 'TRAINING', name: 'Books and training', max: 50_000, receipt: true },
  { code: 'PHONE', name: 'Phone and internet', max: 6_000, receipt: true },
];

const EXPENSES: Line[] = [
  {
    description: 'Train Paris–Lyon, return',
    category: 'travel',
    unit_price_cents: 11_800,
    tax_rate: '10',
  },
  {
    description: 'Hotel, one night',
    category: 'accommodation',
    unit_price_cents: 12_900,
    tax_rate: '10',
  },
  {
    description: 'Lunch with the customer',
    category: 'meals',
    unit_price_cents: 6_450,
    tax_rate: '10',
  },
  {
    description: 'Taxi to the station',
    category: 'transport',
    unit_price_cents: 2_350,
    tax_rate: '10',
  },
  { description: 'Fuel, company car', category: 'fuel', unit_price_cents: 7_820, tax_rate: '20' },
  {
    description: 'Printer paper and toner',
    category: 'office_supplies',
    unit_price_cents: 4_390,
    tax_rate: '20',
  },
];

const EXPENSE_TITLES = [
  'Customer visit, Lyon',
  'Trade fair, Paris Nord Villepinte',
  'Supplier audit, Milan',
  'Sales tour, Brittany',
  'Training, Bordeaux',
  'Project workshop, Brussels',
];

const GOALS = [
  'Close the monthly books within 5 working days',
  'Bring customer satisfaction above 90 %',
  'Train two colleagues on the new ERP',
  'Reduce supplier lead times by 10 %',
  'Deliver the projects of the year on budget',
  'Cut the stock counting gap below 1 %',
];

/** A reason that fits the month the leave starts in. */
function leaveReason(start: string, n: number): string {
  const month = Number(start.slice(5, 7));
  if (month === 7 || month === 8) return 'Summer holiday';
  if (month === 12 || month <= 2) return n % 2 ? 'Winter holiday' : 'Ski week with the children';
  return ['Long weekend', 'Family wedding', 'Moving house', 'Personal matters'][n % 4]!;
}

export const hrSeed: SeedOverrides = {
  department(ctx) {
    const d = cycle(DEPARTMENTS, ctx.n);
    return { code: d.code, name: d.name, parent_id: null };
  },
  position(ctx) {
    const d = cycle(DEPARTMENTS, ctx.n);
    const department = all(ctx, 'department').find((r) => r.code === d.code);
    return {
      name: d.job,
      department_id: department?.id ?? ctx.pick('department').id,
      headcount: d.code === 'MGT' ? 1 : 2 + (ctx.n % 6),
    };
  },
  employee(ctx) {
    const position = ctx.pick('position');
    const department = byId(ctx, 'department', position.department_id) ?? ctx.pick('department');
    const firstName = ctx.faker.person.firstName();
    const lastName = ctx.faker.person.lastName();
    const hireDate = ctx.daysAfter('2014-09-01', ctx.n * 173);
    const left = ctx.n % 6 === 5;
    return {
      employee_number: `E-${String(ctx.n + 1).padStart(4, '0')}`,
      first_name: firstName,
      last_name: lastName,
      email: `${ascii(firstName)}.${ascii(lastName)}@demo.test`,
      position_id: position.id,
      department_id: department.id,
      job_title: String(position.name).slice(0, 100),
      department: String(department.name).slice(0, 100),
      hire_date: hireDate,
      employment_status: left ? 'left' : 'active',
      leaving_date: left ? addDays(hireDate, 900 + ctx.n * 30) : null,
    };
  },
  holiday_list(ctx) {
    const [country, label] = HOLIDAY_COUNTRIES[Math.floor(ctx.n / 4) % HOLIDAY_COUNTRIES.length]!;
    const year = 2024 + (ctx.n % 4);
    return {
      name: `${label} ${year}${ctx.n >= 12 ? ` (${Math.floor(ctx.n / 12) + 1})` : ''}`,
      country_code: country,
      start_date: `${year}-01-01`,
      end_date: `${year}-12-31`,
      weekly_off: 'saturday_sunday',
      holidays: publicHolidays(country, year).map((h) => ({ ...h, is_half_day: false })),
    };
  },
  shift_type(ctx) {
    const shift = cycle(SHIFTS, ctx.n);
    return {
      code: shift.code,
      name: shift.name,
      start_hour: shift.start,
      end_hour: shift.end,
      break_minutes: shift.break,
      is_night_shift: shift.night,
      late_grace_minutes: 10,
      early_exit_grace_minutes: 10,
    };
  },
  shift_assignment(ctx) {
    const start = nextWorkingDay(ctx.daysAfter('2026-01-05', ctx.n * 14));
    return {
      employee_id: activeEmployee(ctx).id,
      shift_type_id: ctx.pick('shift_type').id,
      start_date: start,
      end_date: ctx.n % 4 === 3 ? null : addDays(start, 27),
    };
  },
  employment_contract(ctx) {
    const employee = ctx.pick('employee');
    const type = CONTRACT_TYPES[ctx.n % CONTRACT_TYPES.length]!;
    const start = String(employee.hire_date);
    const months = { permanent: 0, fixed_term: 12, apprenticeship: 24, internship: 6 }[type] ?? 0;
    const partTime = ctx.n % 5 === 4;
    const wage =
      type === 'internship'
        ? 65_000
        : type === 'apprenticeship'
          ? 125_000
          : 220_000 + ctx.n * 31_500;
    return {
      employee_id: employee.id,
      contract_type: type,
      position_id: employee.position_id,
      department_id: employee.department_id,
      start_date: start,
      end_date: months
        ? addDays(start, Math.round(months * 30.4) - 1)
        : (employee.leaving_date ?? null),
      trial_period_end_date: addDays(start, type === 'permanent' ? 120 : 30),
      signed_on: addDays(start, -14),
      wage_cents: partTime ? Math.round((wage * 24) / 35) : wage,
      wage_period: 'monthly',
      currency: 'EUR',
      weekly_hours: partTime ? '24' : '35',
      shift_type_id: employee.default_shift_type_id ?? ctx.pick('shift_type').id,
      notice_period_days: type === 'permanent' ? 60 : 15,
    };
  },
  leave_type(ctx) {
    const type = cycle(LEAVE_TYPES, ctx.n);
    return {
      code: type.code,
      name: type.name,
      leave_kind: type.kind,
      is_paid: type.paid,
      requires_allocation: type.alloc,
      requires_approval: type.kind !== 'sick',
      request_unit: type.unit,
      max_consecutive_days: type.max ?? (type.code === 'CP' ? 24 : null),
      accrual_days_per_month: type.accrual ?? null,
      max_carry_forward_days: type.carry ?? null,
      allow_negative_balance: false,
    };
  },
  leave_allocation(ctx) {
    const allocated = all(ctx, 'leave_type').filter((t) => t.requires_allocation);
    const type = allocated.length ? allocated[ctx.n % allocated.length]! : ctx.pick('leave_type');
    const entitled = LEAVE_TYPES.find((t) => t.code === String(type.code).split('-')[0])?.days ?? 5;
    const carried = ctx.n % 3 === 0 ? 3 : 0;
    return {
      employee_id: activeEmployee(ctx).id,
      leave_type_id: type.id,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      days: String(entitled + carried),
      carried_forward_days: String(carried),
      allocation_kind: type.accrual_days_per_month ? 'accrual' : 'regular',
      reason: carried
        ? 'Yearly entitlement, with days carried over from 2025'
        : 'Yearly entitlement',
    };
  },
  leave_request(ctx) {
    const allocation = ctx.pick('leave_allocation');
    const employee = byId(ctx, 'employee', allocation.employee_id);
    const holidays = holidaysOf(ctx, employee);
    const start = nextWorkingDay(
      addDays(String(allocation.start_date), 20 + ((ctx.n * 23) % 300)),
      holidays,
    );
    const wanted = Math.min(Number(allocation.days), 1 + (ctx.n % 8));
    const end = earliest(addWorkingDays(start, wanted, holidays), String(allocation.end_date));
    return {
      employee_id: allocation.employee_id,
      leave_type_id: allocation.leave_type_id,
      allocation_id: allocation.id,
      start_date: start,
      end_date: end,
      is_half_day: false,
      days: String(workingDaysBetween(start, end, holidays)),
      reason: leaveReason(start, ctx.n),
    };
  },
  attendance(ctx) {
    const employee = activeEmployee(ctx);
    const shift = byId(ctx, 'shift_type', employee.default_shift_type_id) ?? ctx.pick('shift_type');
    const day = nextWorkingDay(addDays('2026-03-02', ctx.n), holidaysOf(ctx, employee));
    const startHour = Number(shift.start_hour);
    const endHour = Number(shift.end_hour);
    const length = (endHour > startHour ? endHour - startHour : endHour + 24 - startHour) * 60;
    const lateBy = [-6, 3, 12, -2, 18, 0][ctx.n % 6]!; // minutes after the shift start
    const stayedBy = [4, 11, -14, 20, 2, 7][ctx.n % 6]!; // minutes after the shift end
    // Paris is UTC+1 in early March: local hours minus one.
    const midnight = Date.parse(`${day}T00:00:00Z`) - 3_600_000;
    const checkIn = midnight + (startHour * 60 + lateBy) * 60_000;
    const checkOut = midnight + (startHour * 60 + length + stayedBy) * 60_000;
    const breakMinutes = Number(shift.break_minutes ?? 0);
    const location = ['office', 'office', 'remote', 'office', 'client_site', 'office'][ctx.n % 6]!;
    const worked = (checkOut - checkIn) / 3_600_000 - breakMinutes / 60;
    return {
      employee_id: employee.id,
      attendance_date: day,
      check_in: new Date(checkIn).toISOString(),
      check_out: new Date(checkOut).toISOString(),
      break_minutes: breakMinutes,
      worked_hours: worked.toFixed(2),
      shift_type_id: shift.id,
      work_location: location,
      source: location === 'office' ? 'badge_reader' : 'mobile',
      is_late_entry: lateBy > Number(shift.late_grace_minutes ?? 0),
      is_early_exit: stayedBy < -Number(shift.early_exit_grace_minutes ?? 0),
    };
  },
  salary_component(ctx) {
    const c = cycle(SALARY_COMPONENTS, ctx.n);
    return {
      code: c.code,
      name: c.name,
      component_type: c.type,
      calculation: c.calc,
      amount_cents: c.amount ?? null,
      rate: c.rate ?? null,
      is_taxable: c.taxable,
      depends_on_payment_days: c.code === 'BASE' || c.code === 'TRANSPORT',
    };
  },
  salary_structure(ctx) {
    const s = cycle(STRUCTURES, ctx.n);
    const components = all(ctx, 'salary_component').filter(
      (c) => c.code !== 'OVERTIME' && (s.code !== 'STAGIAIRES' || c.component_type === 'earning'),
    );
    return {
      code: s.code,
      name: s.name,
      pay_frequency: 'monthly',
      currency: 'EUR',
      components: components.map((c) => ({
        salary_component_id: c.id,
        amount_cents: c.amount_cents ?? null,
        rate: c.rate ?? null,
      })),
    };
  },
  payroll_run(ctx) {
    const month = ctx.n % 12;
    const year = 2025 + Math.floor(ctx.n / 12);
    const { start, end } = monthBounds(year, month + 1);
    const label = new Date(Date.UTC(year, month, 1)).toLocaleString('en-GB', {
      month: 'long',
      timeZone: 'UTC',
    });
    return {
      name: `Payroll ${label} ${year}`,
      start_date: start,
      end_date: end,
      payment_date: end,
      pay_frequency: 'monthly',
      department_id: null,
      currency: 'EUR',
    };
  },
  payslip(ctx) {
    const run = ctx.pick('payroll_run');
    const employee = activeEmployee(ctx);
    const contract = all(ctx, 'employment_contract').find((c) => c.employee_id === employee.id);
    const start = String(run.start_date);
    const end = String(run.end_date);
    const workingDays = workingDaysBetween(start, end, holidaysOf(ctx, employee));
    const paidDays = ctx.n % 5 === 2 ? workingDays - 1 : workingDays; // one day of unpaid leave
    const monthly = contract ? Number(contract.wage_cents) : 280_000;
    const base = toCents((monthly * paidDays) / workingDays);
    const component = (code: string) =>
      all(ctx, 'salary_component').find((c) => String(c.code) === code);
    const lines: Line[] = [];
    const add = (code: string, amount: number, extra: Line = {}) => {
      const c = component(code);
      if (!c || amount <= 0) return;
      lines.push({
        salary_component_id: c.id,
        description: c.name,
        line_type: c.component_type,
        amount_cents: amount,
        ...extra,
      });
    };
    add('BASE', base);
    if (ctx.n % 3 === 0) add('BONUS', 20_000);
    add('TRANSPORT', 4_320);
    const gross = lines.reduce((sum, l) => sum + Number(l.amount_cents), 0);
    for (const code of [
      'CSG',
      'CRDS',
      'VIEILLESSE',
      'RETRAITE',
      'EMP-MALADIE',
      'EMP-VIEILLESSE',
      'EMP-CHOMAGE',
    ]) {
      const rate = Number(component(code)?.rate ?? 0);
      add(code, toCents((gross * rate) / 100), { base_cents: gross, rate: String(rate) });
    }
    add('MUTUELLE', 4_500);
    const deductions = lines
      .filter((l) => l.line_type === 'deduction')
      .reduce((sum, l) => sum + Number(l.amount_cents), 0);
    return {
      employee_id: employee.id,
      payroll_run_id: run.id,
      employment_contract_id: contract?.id ?? null,
      salary_structure_id: contract?.salary_structure_id ?? ctx.pick('salary_structure').id,
      start_date: start,
      end_date: end,
      payment_date: run.payment_date,
      currency: 'EUR',
      working_days: String(workingDays),
      paid_days: String(paidDays),
      lines,
      gross_pay_cents: gross,
      total_deductions_cents: deductions,
      net_pay_cents: gross - deductions,
    };
  },
  appraisal(ctx) {
    const employee = activeEmployee(ctx);
    const reviewer = byId(ctx, 'employee', employee.manager_id) ?? activeEmployee(ctx, ctx.n + 1);
    const goals = [0, 1, 2].map((i) => ({
      goal: GOALS[(ctx.n + i) % GOALS.length],
      weight: ['50', '30', '20'][i],
      score: String([3, 4, 2.5, 3.5, 4.5][(ctx.n + i) % 5]),
      comments: ctx.faker.lorem.sentence(),
    }));
    const final = goals.reduce((sum, g) => sum + (Number(g.score) * Number(g.weight)) / 100, 0);
    return {
      employee_id: employee.id,
      reviewer_id: reviewer.id === employee.id ? null : reviewer.id,
      start_date: '2025-01-01',
      end_date: '2025-12-31',
      meeting_date: nextWorkingDay(addDays('2026-01-12', ctx.n * 3)),
      goals,
      final_score: final.toFixed(2),
    };
  },
  job_opening(ctx) {
    const position = ctx.pick('position');
    const opening = nextWorkingDay(ctx.daysAfter('2026-01-12', ctx.n * 9));
    const salaryMin = 3_200_000 + ctx.n * 250_000;
    return {
      name: String(position.name),
      position_id: position.id,
      department_id: position.department_id ?? null,
      vacancies: 1 + (ctx.n % 3),
      salary_min_cents: salaryMin,
      salary_max_cents: Math.round(salaryMin * 1.25),
      currency: 'EUR',
      opening_date: opening,
      closing_date: addDays(opening, 45),
    };
  },
  job_applicant(ctx) {
    const opening = ctx.pick('job_opening');
    const firstName = ctx.faker.person.firstName();
    const lastName = ctx.faker.person.lastName();
    const applied = addDays(String(opening.opening_date), 3 + ((ctx.n * 7) % 40));
    const low = Number(opening.salary_min_cents ?? 3_500_000);
    const high = Number(opening.salary_max_cents ?? low);
    const source = ['website', 'referral', 'job_board', 'linkedin', 'agency'][ctx.n % 5]!;
    const hired = ctx.status === 'converti';
    return {
      job_opening_id: opening.id,
      applicant_name: `${firstName} ${lastName}`,
      email: `${ascii(firstName)}.${ascii(lastName)}@example.com`,
      application_date: applied,
      source,
      referred_by_id: source === 'referral' ? activeEmployee(ctx, ctx.n + 2).id : null,
      expected_salary_cents: Math.round(low + ((high - low) * (ctx.n % 4)) / 3),
      currency: 'EUR',
      availability_date: addDays(applied, 30 + (ctx.n % 3) * 30),
      rating: 2 + (ctx.n % 4),
      employee_id: hired ? activeEmployee(ctx).id : null,
    };
  },
  skill(ctx) {
    const skill = cycle(SKILLS, ctx.n);
    return { name: skill.name, skill_type: skill.type };
  },
  employee_skill(ctx) {
    const skill = ctx.pick('skill', ctx.n * 5);
    const acquired = addDays('2019-03-01', ctx.n * 97);
    const certified = skill.skill_type === 'certification';
    return {
      employee_id: ctx.pick('employee').id,
      skill_id: skill.id,
      level: ['beginner', 'intermediate', 'advanced', 'expert'][ctx.n % 4],
      acquired_on: acquired,
      is_certified: certified,
      valid_until: certified ? addDays(acquired, 3 * 365) : null,
    };
  },
  training_event(ctx) {
    const skill = ctx.pick('skill');
    const course = SKILLS.find((s) => skill.name === s.name);
    const start = nextWorkingDay(ctx.daysAfter('2026-01-19', ctx.n * 17));
    const days = 1 + (ctx.n % 3);
    const employees = all(ctx, 'employee').filter((e) => e.employment_status !== 'left');
    const attendees = Array.from(
      { length: Math.min(employees.length, 2 + (ctx.n % 3)) },
      (_, i) => ({
        employee_id: employees[(ctx.n + i * 3) % employees.length]!.id,
        attended: i !== 2,
        result: i === 2 ? 'pending' : ctx.n % 5 === 1 && i === 1 ? 'failed' : 'passed',
      }),
    );
    const kind =
      skill.skill_type === 'certification'
        ? 'certification'
        : ['internal', 'external', 'e_learning'][ctx.n % 3]!;
    return {
      name: course?.training ?? `${String(skill.name)} training`,
      training_kind: kind,
      location:
        kind === 'e_learning'
          ? 'Online'
          : ['Lyon, salle Rhône', 'Paris, head office', 'Nantes, training centre'][ctx.n % 3],
      skill_id: skill.id,
      start_date: start,
      end_date: addWorkingDays(start, days),
      duration_hours: String(days * 7),
      cost_cents: days * 95_000,
      currency: 'EUR',
      attendees,
    };
  },
  expense_category(ctx) {
    const c = cycle(EXPENSE_CATEGORIES, ctx.n);
    return { code: c.code, name: c.name, max_amount_cents: c.max, requires_receipt: c.receipt };
  },
  expense_report(ctx) {
    const employee = activeEmployee(ctx);
    const approver = byId(ctx, 'employee', employee.manager_id) ?? activeEmployee(ctx, ctx.n + 1);
    const reportDate = ctx.daysAfter('2026-01-30', ctx.n * 14);
    const lines = Array.from({ length: 1 + (ctx.n % 3) }, (_, i) => {
      const expense = EXPENSES[(ctx.n + i) % EXPENSES.length]!;
      return {
        ...expense,
        quantity: '1',
        expense_date: addDays(reportDate, -(2 + i * 3)),
        receipt_reference: `R-${reportDate.replace(/-/g, '')}-${i + 1}`,
      };
    });
    return {
      employee_id: employee.id,
      approver_id: approver.id === employee.id ? null : approver.id,
      title: `${EXPENSE_TITLES[ctx.n % EXPENSE_TITLES.length]}, ${new Date(`${reportDate}T00:00:00Z`).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })}`,
      report_date: reportDate,
      currency: 'EUR',
      lines,
    };
  },
};
