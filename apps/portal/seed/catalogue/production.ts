import { HOLIDAYS_2026, weekLines } from './calendars';
import type { SeededRecord, SeedOverrides } from './context';
import { at, byId, dayOf, dec, findRecord, inStatus, minutesAfter, recordsOf } from './records';

type Line = Record<string, unknown>;

/** Products made in-house are stocked ones; services are not made nor consumed. */
const stocked = (r: SeededRecord) => r.product_type === 'stockable';
const notService = (r: SeededRecord) => r.product_type !== 'service';

const SITES = ['Lyon', 'Nantes', 'Lille', 'Bordeaux'] as const;

/** Working weeks: one day shift, two shifts, three shifts six days a week. */
const WEEKS = [
  {
    code: '1X8',
    name: 'Journée 8 h – 17 h',
    hoursPerDay: 8,
    days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    hours: [
      [8, 12],
      [13, 17],
    ],
  },
  {
    code: '2X8',
    name: 'Deux équipes 6 h – 22 h',
    hoursPerDay: 16,
    days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    hours: [
      [6, 14],
      [14, 22],
    ],
  },
  {
    code: '3X8',
    name: 'Trois-huit, lundi au samedi',
    hoursPerDay: 24,
    days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'],
    hours: [[0, 24]],
  },
] as const;

/** [code, name, type, cost per hour (cents), capacity, setup, cleanup]. */
const WORK_CENTERS = [
  ['CNC-01', 'Centre d’usinage CNC 1', 'machine', 8500, 1, 20, 10],
  ['LASER-01', 'Découpe laser fibre', 'machine', 9500, 1, 15, 5],
  ['PLI-01', 'Presse plieuse 135 t', 'machine', 7000, 1, 25, 5],
  ['SOUD-01', 'Poste de soudure MIG', 'manual', 5200, 2, 10, 10],
  ['PEINT-01', 'Cabine de peinture poudre', 'machine', 6000, 1, 30, 20],
  ['ASM-01', 'Ligne d’assemblage 1', 'assembly', 4800, 4, 10, 5],
  ['ASM-02', 'Ligne d’assemblage 2', 'assembly', 4800, 4, 10, 5],
  ['CTRL-01', 'Banc de contrôle final', 'inspection', 4500, 1, 5, 0],
  ['EMB-01', 'Poste d’emballage', 'packaging', 3500, 2, 5, 5],
  ['TOUR-01', 'Tour à commande numérique', 'machine', 7800, 1, 20, 10],
  ['MONT-01', 'Établi de montage', 'manual', 4200, 3, 5, 5],
  ['SST-TRAIT', 'Traitement de surface (sous-traité)', 'subcontractor', 0, 10, 0, 0],
] as const;

/**
 * Steps of a routing, in order: [name, setup minutes, run minutes per unit, work centre code].
 * A routing takes the even ones or the odd ones: cutting, welding, assembly; or machining,
 * painting, inspection and packing.
 */
const STEPS = [
  [
    'Découpe des tôles',
    15,
    2.5,
    'LASER-01',
    'Charger le programme de découpe, vérifier l’épaisseur de tôle.',
  ],
  [
    'Usinage des pièces',
    20,
    6,
    'CNC-01',
    'Monter le montage d’usinage, contrôler la première pièce.',
  ],
  [
    'Soudure du châssis',
    10,
    8,
    'SOUD-01',
    'Pointer sur le gabarit, souder en alternant les côtés.',
  ],
  ['Peinture et cuisson', 30, 4, 'PEINT-01', 'Dégraisser, poudrer, cuire 20 min à 180 °C.'],
  ['Assemblage final', 10, 12, 'ASM-01', 'Serrer les vis d’assise au couple de 25 N·m.'],
  ['Contrôle et emballage', 5, 3, 'CTRL-01', 'Essai fonctionnel, étiquetage, mise en carton.'],
] as const;

const SCRAP_PERCENTS = ['0', '1.5', '2', '5'] as const;

/** Quality points: [name, stage, type, norm, min, max, unit, frequency]. */
const QUALITY_POINTS = [
  [
    'Couple de serrage des vis d’assise',
    'in_process',
    'measurement',
    '25',
    '24',
    '26',
    'N·m',
    'every_lot',
  ],
  ['Aspect de la peinture', 'final', 'visual', null, null, null, null, 'every_unit'],
  ['Essai fonctionnel du vérin', 'final', 'pass_fail', null, null, null, null, 'every_unit'],
  [
    'Diamètre d’alésage',
    'in_process',
    'measurement',
    '12',
    '11.98',
    '12.02',
    'mm',
    'random_sample',
  ],
  ['Épaisseur de tôle à réception', 'receipt', 'measurement', '2', '1.9', '2.1', 'mm', 'every_lot'],
  ['Étiquetage et notice', 'delivery', 'instructions', null, null, null, null, 'every_lot'],
] as const;

const MAINTENANCE = [
  ['Graissage de la broche', 'preventive', 2],
  ['Remplacement du roulement de broche', 'corrective', 6],
  ['Étalonnage des capteurs de couple', 'calibration', 3],
  ['Contrôle des carters de sécurité', 'inspection', 1],
  ['Vidange du circuit hydraulique', 'preventive', 4],
] as const;

/** Downtime reasons with the OEE factor they lower and whether they are planned. */
const DOWNTIME = [
  ['breakdown', 'availability', false, 95],
  ['changeover', 'availability', true, 40],
  ['material_shortage', 'availability', false, 120],
  ['quality_issue', 'quality', false, 35],
  ['no_operator', 'availability', false, 60],
  ['planned_maintenance', 'availability', true, 180],
  ['other', 'performance', false, 25],
] as const;

/** Non-conformances: [description, corrective action, preventive action]. */
const ALERTS = [
  [
    'Trois pièces du lot mesurées hors tolérance au contrôle en cours de fabrication.',
    'Lot isolé et trié à 100 %, pièces non conformes rebutées.',
    'Contrôle du premier article ajouté après chaque changement de série.',
  ],
  [
    'Défaut d’aspect (coulures) sur la peinture de plusieurs châssis.',
    'Châssis repris en cabine, température du four recalibrée.',
    'Relevé de température du four ajouté à la check-list de démarrage.',
  ],
  [
    'Vérin qui ne tient pas la pression lors de l’essai fonctionnel.',
    'Joints remplacés sur les vérins du lot, essais refaits.',
    'Fournisseur de joints audité, contrôle à réception renforcé.',
  ],
  [
    'Couple de serrage insuffisant constaté sur les vis d’assise.',
    'Visseuse réétalonnée, vis du lot resserrées au couple nominal.',
    'Étalonnage des visseuses passé de trimestriel à mensuel.',
  ],
] as const;

const DOWNTIME_TEXT: Record<string, string> = {
  breakdown: 'Arrêt broche sur défaut variateur, intervention maintenance.',
  changeover: 'Changement de série et réglage des outillages.',
  material_shortage: 'Attente de tôles, livraison fournisseur en retard.',
  quality_issue: 'Production suspendue le temps d’analyser des pièces non conformes.',
  no_operator: 'Opérateur absent, poste non remplacé.',
  planned_maintenance: 'Maintenance préventive planifiée.',
  other: 'Ralentissement de cadence, alimentation manuelle des pièces.',
};

const SCRAP_REASONS = [
  'machine_fault',
  'defective_material',
  'operator_error',
  'setup',
  'damaged',
] as const;

/** The quantity of a production order's work, or of its lines, scaled to a BOM's quantity. */
function scaleComponents(bom: SeededRecord, quantity: number): Line[] {
  const per = quantity / Number(bom.quantity || 1);
  return (bom.components as Line[]).map((line) => ({
    product_id: line.product_id,
    description: line.description,
    // What scrap is expected to cost is consumed too (ERPNext, Odoo: quantity × (1 + scrap)).
    quantity: dec(Number(line.quantity) * per * (1 + Number(line.scrap_percent ?? 0) / 100)),
    unit_of_measure: line.unit_of_measure,
  }));
}

/**
 * Manufacturing records that agree with each other: a BOM's components are other products, a
 * production order makes its BOM's product with its scaled components, its work orders follow
 * its routing on the routing's work centres after its start, and what is consumed, received,
 * scrapped or inspected is the order's.
 */
export const productionSeed: SeedOverrides = {
  shop_calendar(ctx) {
    const week = WEEKS[ctx.n % WEEKS.length]!;
    const site = SITES[Math.floor(ctx.n / WEEKS.length) % SITES.length]!;
    return {
      code: `${site.slice(0, 3).toUpperCase()}-${week.code}`,
      name: `${site} – ${week.name}`,
      time_zone: 'Europe/Paris',
      hours_per_day: String(week.hoursPerDay),
      working_hours: weekLines(week),
    };
  },
  shop_calendar_holiday(ctx) {
    const [name, start, end, recurring] = HOLIDAYS_2026[ctx.n % HOLIDAYS_2026.length]!;
    return { name, start_date: start, end_date: end, is_recurring: recurring };
  },
  work_center(ctx) {
    const [code, name, type, cost, capacity, setup, cleanup] =
      WORK_CENTERS[ctx.n % WORK_CENTERS.length]!;
    return {
      code,
      name,
      work_center_type: type,
      cost_per_hour_cents: cost,
      capacity: String(capacity),
      setup_minutes: String(setup),
      cleanup_minutes: String(cleanup),
      time_efficiency: ['100', '95', '110'][ctx.n % 3],
      description: `${name}, atelier de ${SITES[ctx.n % SITES.length]}.`,
      oee_target: ['85', '80', '90'][ctx.n % 3],
    };
  },
  routing(ctx) {
    // Revisions of the routings of the stocked products, one product after the other.
    const made = recordsOf(ctx, 'product').filter(stocked).length || 1;
    const product = findRecord(ctx, 'product', stocked);
    const revision = 1 + Math.floor(ctx.n / made);
    return {
      product_id: product.id,
      code: `RT-${String(product.sku).slice(0, 24)}-${revision}`,
      name: `Gamme ${String(product.name)}`.slice(0, 100),
      revision: String(revision),
      routing_type: ctx.n % 5 === 4 ? 'parallel' : 'serial',
      description: `Révision ${revision} de la gamme de fabrication.`,
    };
  },
  routing_operation(ctx) {
    // Three steps, 10, 20, 30, for each certified routing (drafts are still being written).
    const routing = findRecord(ctx, 'routing', inStatus('actif'), Math.floor(ctx.n / 3));
    const position = ctx.n % 3;
    const [name, setup, run, center, instructions] =
      STEPS[position * 2 + (Math.floor(ctx.n / 3) % 2)]!;
    const workCenter = findRecord(ctx, 'work_center', (w) => w.code === center);
    return {
      routing_id: routing.id,
      sequence: 10 * (position + 1),
      name,
      work_center_id: workCenter.id,
      setup_minutes: String(setup),
      run_minutes: String(run),
      wait_minutes: name.startsWith('Peinture') ? '45' : '0',
      batch_size: '1',
      instructions,
    };
  },
  bill_of_materials(ctx) {
    // Revisions of the BOMs of the stocked products, as their routings.
    const made = recordsOf(ctx, 'product').filter(stocked).length || 1;
    const product = findRecord(ctx, 'product', stocked);
    const revision = 1 + Math.floor(ctx.n / made);
    // Components are bought materials (consumables), never another made product: no BOM
    // contains a product whose own BOM contains it.
    const candidates = recordsOf(ctx, 'product').filter((p) => p.id !== product.id);
    const bought = candidates.filter((p) => p.product_type === 'consumable');
    const goods = candidates.filter((p) => notService(p) && !stocked(p));
    const others = bought.length >= 2 ? bought : goods.length >= 2 ? goods : candidates;
    const count = Math.min(others.length, 2 + (ctx.n % 3));
    const components = Array.from({ length: count }, (_, i) => {
      const component = others[(ctx.n + i * 3) % others.length]!;
      return {
        product_id: component.id,
        description: String(component.name),
        quantity: String([2, 1, 4, 0.5, 8][(ctx.n + i) % 5]),
        unit_of_measure: component.unit_of_measure ?? 'Unit',
        scrap_percent: SCRAP_PERCENTS[(ctx.n + i) % SCRAP_PERCENTS.length],
        operation_sequence: 10 * (1 + (i % 3)),
      };
    });
    const routing =
      recordsOf(ctx, 'routing').find(
        (r) => r.product_id === product.id && r.revision === String(revision),
      ) ?? recordsOf(ctx, 'routing').find((r) => r.product_id === product.id);
    const kit = ctx.n % 6 === 5;
    return {
      product_id: product.id,
      revision: String(revision),
      bom_type: kit ? 'kit' : 'manufacture',
      quantity: '1',
      routing_id: routing && !kit ? routing.id : undefined,
      // The certified revision is the one used when an order names no BOM.
      is_default: ctx.status === 'actif',
      valid_from: ctx.daysAfter('2026-01-01', (ctx.n % 3) * 14),
      valid_until: undefined,
      components,
      byproducts: [],
    };
  },
  production_order(ctx) {
    // From a certified BOM where there is one: its product, its routing, its components.
    const bom = findRecord(ctx, 'bill_of_materials', inStatus('actif'));
    const quantity = [50, 20, 100, 10, 35][ctx.n % 5]!;
    const plannedStart = ctx.daysAfter('2026-02-02', ctx.n * 4);
    const product = byId(ctx, 'product', bom.product_id);
    return {
      bom_id: bom.id,
      routing_id: bom.routing_id ?? undefined,
      product_id: bom.product_id,
      quantity: String(quantity),
      unit_of_measure: product?.unit_of_measure ?? 'Unit',
      components: scaleComponents(bom, quantity),
      planned_start: plannedStart,
      planned_end: ctx.daysAfter(plannedStart, 3 + (ctx.n % 4)),
      // Made to stock: a made-to-order link would have to be a sales order of this product.
      sales_order_id: undefined,
    };
  },
  production_plan(ctx) {
    const start = ctx.daysAfter('2026-01-01', ctx.n * 28);
    const boms = recordsOf(ctx, 'bill_of_materials').filter(inStatus('actif'));
    const pool = boms.length ? boms : recordsOf(ctx, 'bill_of_materials');
    const lines = Array.from({ length: Math.min(pool.length, 1 + (ctx.n % 3)) }, (_, i) => {
      const bom = pool[(ctx.n + i) % pool.length]!;
      return {
        product_id: bom.product_id,
        bom_id: bom.id,
        quantity: String([200, 50, 120, 80][(ctx.n + i) % 4]),
        unit_of_measure: 'Unit',
        planned_date: ctx.daysAfter(start, 7 + i * 7),
      };
    });
    return {
      name: `Plan de production ${new Date(`${start}T00:00:00Z`).toLocaleDateString('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' })}`,
      start_date: start,
      end_date: ctx.daysAfter(start, 27),
      lines,
    };
  },
  work_order(ctx) {
    // Each production order's routing, step by step, on the steps' work centres, after its
    // start; work under way or done belongs to an order under way or done.
    const orderStatuses =
      ctx.status === 'planifie'
        ? ['lance', 'brouillon']
        : ctx.status === 'termine'
          ? ['termine', 'en_cours']
          : ['en_cours'];
    const order = findRecord(ctx, 'production_order', inStatus(...orderStatuses));
    const steps = recordsOf(ctx, 'routing_operation')
      .filter((op) => op.routing_id === order.routing_id)
      .sort((a, b) => Number(a.sequence) - Number(b.sequence));
    const step = steps.length ? steps[ctx.n % steps.length] : undefined;
    const index = step ? steps.indexOf(step) : 0;
    const quantity = Number(order.quantity);
    const expected = step
      ? Number(step.setup_minutes) + Number(step.run_minutes) * quantity
      : 30 + quantity * 5;
    const plannedStart = at(ctx.daysAfter(String(order.planned_start), index), 7);
    const started = ctx.status !== 'planifie';
    const actualStart = minutesAfter(plannedStart, 10 + (ctx.n % 4) * 15);
    const actualMinutes = Math.round(expected * (0.9 + (ctx.n % 5) * 0.05));
    const done = ctx.status === 'termine';
    return {
      production_order_id: order.id,
      routing_operation_id: step?.id,
      work_center_id: step?.work_center_id ?? ctx.pick('work_center').id,
      name: step?.name ?? 'Assemblage final',
      sequence: step ? Number(step.sequence) : 10,
      quantity: dec(quantity),
      quantity_produced: done ? dec(quantity - (ctx.n % 3)) : started ? dec(quantity / 2) : '0',
      quantity_scrapped: done ? dec(ctx.n % 3) : '0',
      planned_start: plannedStart,
      planned_end: minutesAfter(plannedStart, expected),
      actual_start: started ? actualStart : undefined,
      actual_end: done ? minutesAfter(actualStart, actualMinutes) : undefined,
      expected_minutes: dec(expected),
      actual_minutes: done ? dec(actualMinutes) : undefined,
      instructions: step?.instructions ?? undefined,
    };
  },
  job_card(ctx) {
    // Operators' logs on a started work order, from its actual start.
    const order = findRecord(ctx, 'work_order', (r) => Boolean(r.actual_start));
    const start = String(order.actual_start ?? order.planned_start);
    const employees = recordsOf(ctx, 'employee');
    const operator = order.operator_id ?? employees[ctx.n % Math.max(1, employees.length)]?.id;
    const total = Number(order.actual_minutes ?? order.expected_minutes ?? 240);
    const first = Math.round(total * 0.6);
    const quantity = Number(order.quantity_produced ?? 0) || Number(order.quantity) / 2;
    const firstQuantity = Math.floor(quantity * 0.6);
    const secondStart = minutesAfter(start, first + 30);
    return {
      work_order_id: order.id,
      work_center_id: order.work_center_id,
      posting_date: dayOf(start),
      time_logs: [
        {
          employee_id: operator,
          started_at: start,
          ended_at: minutesAfter(start, first),
          minutes: dec(first),
          completed_quantity: dec(firstQuantity),
        },
        {
          employee_id: operator,
          started_at: secondStart,
          ended_at: minutesAfter(secondStart, total - first),
          minutes: dec(total - first),
          completed_quantity: dec(quantity - firstQuantity),
        },
      ],
      completed_quantity: dec(quantity),
      rejected_quantity: dec(Number(order.quantity_scrapped ?? 0)),
      total_minutes: dec(total),
      remarks: [
        'RAS.',
        'Réglage repris après la première pièce.',
        'Outil changé en cours de série.',
      ][ctx.n % 3],
    };
  },
  material_consumption(ctx) {
    const order = findRecord(ctx, 'production_order', inStatus('en_cours', 'termine'));
    const lines = (order.components as Line[]).map((line, i) => ({
      ...line,
      lot_number: `LOT-2026-${String(100 + ((ctx.n * 7 + i) % 900)).padStart(4, '0')}`,
    }));
    return {
      production_order_id: order.id,
      work_order_id: undefined,
      warehouse_id: order.source_warehouse_id ?? order.warehouse_id,
      consumption_date: String(order.planned_start),
      lines: lines.length ? lines : [{ product_id: order.product_id, quantity: '1' }],
    };
  },
  finished_goods_receipt(ctx) {
    const order = findRecord(ctx, 'production_order', inStatus('en_cours', 'termine'));
    const product = byId(ctx, 'product', order.product_id);
    const quantity = Number(order.quantity);
    return {
      production_order_id: order.id,
      product_id: order.product_id,
      quantity: dec(order.status === 'termine' ? quantity : Math.floor(quantity / 2)),
      unit_of_measure: order.unit_of_measure ?? 'Unit',
      warehouse_id: order.warehouse_id,
      receipt_date: String(order.planned_end ?? ctx.daysAfter(String(order.planned_start), 4)),
      lot_number: `LOT-2026-${String(200 + ctx.n).padStart(4, '0')}`,
      unit_cost_cents: Number(product?.cost_price_cents ?? 0) || undefined,
    };
  },
  scrap_entry(ctx) {
    const workOrder = findRecord(ctx, 'work_order', (r) => Boolean(r.actual_start));
    const order = byId(ctx, 'production_order', workOrder.production_order_id)!;
    const components = (order.components as Line[]) ?? [];
    // A component lost at an operation, or a finished unit failing at the end.
    const line = ctx.n % 2 === 0 ? components[0] : undefined;
    const productId = line?.product_id ?? order.product_id;
    const product = byId(ctx, 'product', productId);
    const quantity = 1 + (ctx.n % 3);
    return {
      product_id: productId,
      quantity: String(quantity),
      unit_of_measure: product?.unit_of_measure ?? 'Unit',
      production_order_id: order.id,
      work_order_id: workOrder.id,
      work_center_id: workOrder.work_center_id,
      warehouse_id: order.source_warehouse_id ?? order.warehouse_id,
      scrap_date: dayOf(String(workOrder.actual_start)),
      reason: SCRAP_REASONS[ctx.n % SCRAP_REASONS.length],
      lot_number: `LOT-2026-${String(100 + ctx.n).padStart(4, '0')}`,
      cost_cents: quantity * Number(product?.cost_price_cents ?? 0),
    };
  },
  downtime_entry(ctx) {
    const [reason, lossType, planned, minutes] = DOWNTIME[ctx.n % DOWNTIME.length]!;
    const workOrder = findRecord(ctx, 'work_order', (r) => Boolean(r.actual_start));
    const startedAt = minutesAfter(String(workOrder.actual_start ?? workOrder.planned_start), 90);
    const ongoing = ctx.n % 6 === 5;
    return {
      work_center_id: workOrder.work_center_id,
      work_order_id: workOrder.id,
      started_at: startedAt,
      ended_at: ongoing ? undefined : minutesAfter(startedAt, minutes),
      duration_minutes: ongoing ? undefined : String(minutes),
      reason,
      loss_type: lossType,
      is_planned: planned,
      description: DOWNTIME_TEXT[reason],
    };
  },
  work_center_maintenance(ctx) {
    const [name, type, hours] = MAINTENANCE[ctx.n % MAINTENANCE.length]!;
    const breakdown =
      type === 'corrective'
        ? findRecord(ctx, 'downtime_entry', (r) => r.reason === 'breakdown')
        : undefined;
    const workCenterId = breakdown?.work_center_id ?? ctx.pick('work_center').id;
    const scheduled = breakdown
      ? dayOf(String(breakdown.started_at))
      : ctx.daysAfter('2026-02-07', ctx.n * 7);
    const startedAt = at(scheduled, type === 'corrective' ? 11 : 6);
    return {
      work_center_id: workCenterId,
      name,
      maintenance_type: type,
      scheduled_date: scheduled,
      planned_hours: String(hours),
      started_at: ctx.status === 'planifie' ? undefined : startedAt,
      ended_at: ctx.status === 'termine' ? minutesAfter(startedAt, hours * 60 + 15) : undefined,
      stops_work_center: type !== 'inspection',
      downtime_entry_id: breakdown?.id,
      cost_cents: [18000, 64000, 32000, 9000, 25000][ctx.n % 5],
    };
  },
  quality_point(ctx) {
    const [name, stage, type, norm, min, max, unit, frequency] =
      QUALITY_POINTS[ctx.n % QUALITY_POINTS.length]!;
    const step = ctx.pick('routing_operation');
    const routing = byId(ctx, 'routing', step.routing_id);
    const inProcess = stage === 'in_process';
    // Checks at receipt are on bought materials; the others on the products made.
    const product =
      stage === 'receipt'
        ? findRecord(ctx, 'product', (p) => p.product_type === 'consumable')
        : ((routing && byId(ctx, 'product', routing.product_id)) ?? ctx.pick('product'));
    return {
      code: `QP-${String(ctx.n + 1).padStart(3, '0')}`,
      name,
      product_id: product.id,
      routing_operation_id: inProcess ? step.id : undefined,
      work_center_id: inProcess ? step.work_center_id : undefined,
      inspection_stage: stage,
      check_type: type,
      norm: norm ?? undefined,
      tolerance_min: min ?? undefined,
      tolerance_max: max ?? undefined,
      measure_unit: unit ?? undefined,
      frequency,
      sample_percent: frequency === 'random_sample' ? '10' : undefined,
      instructions:
        type === 'measurement'
          ? `Mesurer avec l’instrument étalonné et relever la valeur en ${unit}.`
          : type === 'pass_fail'
            ? 'Faire le cycle d’essai complet : conforme si aucun défaut n’apparaît.'
            : 'Contrôler visuellement selon la fiche de défauts admissibles.',
    };
  },
  quality_check(ctx) {
    const point = ctx.pick('quality_point');
    const order = findRecord(ctx, 'production_order', (r) => r.product_id === point.product_id);
    const measured =
      point.check_type === 'measurement'
        ? // Within tolerance: every check the seed walks to is passed.
          dec(
            Number(point.tolerance_min) +
              ((Number(point.tolerance_max) - Number(point.tolerance_min)) * (1 + (ctx.n % 3))) / 4,
          )
        : undefined;
    // At receipt, a goods receipt of the material is inspected; elsewhere, a production order.
    const receipt =
      point.inspection_stage === 'receipt'
        ? recordsOf(ctx, 'goods_receipt').find((g) =>
            (g.lines as Line[]).some((l) => l.product_id === point.product_id),
          )
        : undefined;
    const ofOrder = order.product_id === point.product_id && point.inspection_stage !== 'receipt';
    const inspected = ctx.status !== 'planifie';
    return {
      quality_point_id: point.id,
      product_id: point.product_id ?? order.product_id,
      production_order_id: ofOrder ? order.id : undefined,
      work_order_id: ofOrder
        ? recordsOf(ctx, 'work_order').find((w) => w.production_order_id === order.id)?.id
        : undefined,
      goods_receipt_id: receipt?.id,
      lot_number: `LOT-2026-${String(200 + ctx.n).padStart(4, '0')}`,
      inspection_stage: point.inspection_stage,
      inspected_at: receipt
        ? at(String(receipt.received_on), 10)
        : at(ctx.daysAfter(String(order.planned_start), 1 + (ctx.n % 3)), 15),
      sample_size: point.frequency === 'every_unit' ? '1' : '5',
      // A planned check has no result yet.
      measured_value: inspected ? measured : undefined,
      defects_found: inspected ? 0 : undefined,
    };
  },
  quality_alert(ctx) {
    // Raised by a failed check when there is one; otherwise found on the line (the alert
    // then names the product and order, not a check).
    const failed = recordsOf(ctx, 'quality_check').filter(inStatus('rejete'));
    const check = failed.length ? failed[ctx.n % failed.length] : undefined;
    const order = check
      ? byId(ctx, 'production_order', check.production_order_id)
      : ctx.pick('production_order');
    const point = check
      ? byId(ctx, 'quality_point', check.quality_point_id)
      : recordsOf(ctx, 'quality_point').find((p) => p.product_id === order?.product_id);
    const lot = check?.lot_number ?? `LOT-2026-${String(200 + ctx.n).padStart(4, '0')}`;
    const [description, corrective, preventive] = ALERTS[ctx.n % ALERTS.length]!;
    const solved = ctx.status === 'resolu' || ctx.status === 'ferme';
    return {
      description,
      // Actions are written once the cause is found, while it is being solved.
      corrective_action: ctx.status === 'nouveau' ? undefined : corrective,
      preventive_action: solved ? preventive : undefined,
      name: `Non-conformité ${String(point?.name ?? 'produit').toLowerCase()} – lot ${String(lot)}`.slice(
        0,
        200,
      ),
      product_id: check?.product_id ?? order?.product_id,
      production_order_id: order?.id,
      work_center_id: point?.work_center_id ?? undefined,
      quality_check_id: check?.id,
      lot_number: lot,
      root_cause:
        ctx.status === 'nouveau'
          ? undefined
          : ['machine', 'method', 'material', 'measurement'][ctx.n % 4],
      deadline: ctx.daysAfter(
        check ? dayOf(String(check.inspected_at)) : String(order?.planned_start ?? '2026-02-02'),
        10,
      ),
    };
  },
  subcontracting_order(ctx) {
    const order = ctx.pick('production_order');
    const orderDate = ctx.daysAfter(String(order.planned_start), -7);
    const quantity = Number(order.quantity);
    return {
      production_order_id: order.id,
      work_order_id: recordsOf(ctx, 'work_order').find((w) => w.production_order_id === order.id)
        ?.id,
      product_id: order.product_id,
      quantity: dec(quantity),
      unit_of_measure: order.unit_of_measure ?? 'Unit',
      unit_price_cents: [450, 1200, 380, 2500][ctx.n % 4],
      currency: 'EUR',
      order_date: orderDate,
      expected_date: ctx.daysAfter(orderDate, 6),
      warehouse_id: order.warehouse_id,
      // The purchase order is raised once the subcontractor confirms; not linked in the demo.
      purchase_order_id: undefined,
      supplied_components: order.components,
      supplier_reference:
        ctx.status === 'brouillon' ? undefined : `AR-26-${String(3100 + ctx.n * 17)}`,
    };
  },
};
