import type { SeedContext, SeededRecord, SeedOverrides } from './context';
import {
  accountId,
  endOfMonth,
  findRecord,
  monthsAfter,
  periodOf,
  recordsOf,
  recordWith,
  roundCents,
} from './records';

const YEAR = 2026;

const CATEGORIES: [
  code: string,
  name: string,
  method: string,
  lifeMonths: number,
  decliningRate: string | null,
  officeAccounts: boolean,
][] = [
  ['INFO', 'Matériel informatique', 'straight_line', 36, null, true],
  ['MOB', 'Mobilier de bureau', 'straight_line', 120, null, true],
  ['VEH', 'Véhicules de tourisme et utilitaires', 'straight_line', 60, null, false],
  // French dégressif: straight-line rate × 2.25 beyond six years, × 1.75 for five or six.
  ['MACH', 'Machines et outillage industriel', 'declining_balance', 120, '22.5', false],
  ['AGEN', 'Agencements et aménagements', 'straight_line', 120, null, false],
  ['LOG', 'Logiciels', 'straight_line', 36, null, false],
  ['SRV', 'Serveurs et équipements réseau', 'declining_balance', 60, '35', true],
  ['TEL', 'Téléphonie mobile', 'straight_line', 24, null, true],
  ['MANU', 'Matériel de manutention', 'declining_balance', 84, '32.14', false],
  ['TERR', 'Terrains', 'none', 1200, null, false],
  ['CONS', 'Constructions', 'straight_line', 300, null, false],
  ['OUT', 'Petit outillage', 'straight_line', 60, null, false],
];

/** The n-th asset belongs to the n-th category; a land plot keeps its whole value (residual). */
const ASSETS: [
  name: string,
  manufacturer: string | null,
  model: string | null,
  costCents: number,
  residualCents: number,
  location: number,
][] = [
  ['MacBook Pro 14" M3 Pro', 'Apple', 'A2992', 249_900, 0, 0],
  ['Bureau assis-debout Steelcase Migration SE', 'Steelcase', 'Migration SE', 89_000, 0, 0],
  ['Peugeot 308 SW Allure', 'Peugeot', '308 SW', 2_890_000, 800_000, 6],
  ['Presse plieuse Amada HFE3i 100-3', 'Amada', 'HFE3i 100-3', 12_850_000, 0, 2],
  ['Cloisons vitrées open space 3e étage', 'Clestra', 'Hauteville Trapèze', 3_420_000, 0, 0],
  [
    'Licence perpétuelle SolidWorks Premium',
    'Dassault Systèmes',
    'SolidWorks Premium',
    1_190_000,
    0,
    3,
  ],
  ['Serveur Dell PowerEdge R760', 'Dell', 'PowerEdge R760', 1_480_000, 0, 3],
  ['iPhone 15 Pro — flotte commerciale', 'Apple', 'A3102', 122_900, 0, 7],
  ['Chariot élévateur électrique Linde E20', 'Linde', 'E20 PL', 3_150_000, 300_000, 1],
  ['Terrain ZI de Corbas — parcelle AB 112', null, null, 42_000_000, 42_000_000, 9],
  ['Bâtiment atelier Villeurbanne', 'Bouygues Bâtiment', null, 96_000_000, 0, 2],
  ['Perceuse à colonne Optimum B40GSM', 'Optimum', 'B40GSM', 268_000, 0, 2],
];

const LOCATIONS: [
  code: string,
  name: string,
  type: string,
  street: string | null,
  postalCode: string | null,
  city: string | null,
][] = [
  ['PAR-HQ', 'Siège — Paris 2e', 'building', '18 rue du Quatre-Septembre', '75002', 'Paris'],
  [
    'LYS-ENT',
    'Entrepôt Lyon Saint-Priest',
    'building',
    '5 rue Maryse Bastié',
    '69800',
    'Saint-Priest',
  ],
  ['VIL-ATL', 'Atelier Villeurbanne', 'building', '41 rue Léon Blum', '69100', 'Villeurbanne'],
  ['PAR-SRV', 'Salle serveurs — siège', 'room', '18 rue du Quatre-Septembre', '75002', 'Paris'],
  ['LIL-AG', 'Agence Lille', 'floor', '8 rue Esquermoise', '59800', 'Lille'],
  ['BDX-AG', 'Agence Bordeaux', 'floor', '14 cours de l’Intendance', '33000', 'Bordeaux'],
  ['VEH', 'Parc de véhicules', 'vehicle', null, null, null],
  ['TT', 'Télétravail et nomades', 'external', null, null, null],
  ['NTE-SHW', 'Showroom Nantes', 'room', '3 quai de la Fosse', '44000', 'Nantes'],
  ['COR-ZI', 'Zone industrielle de Corbas', 'site', 'rue Marcel Mérieux', '69960', 'Corbas'],
  ['REP', 'Chez le réparateur', 'external', null, null, null],
  [
    'IVR-ARC',
    'Archives Ivry-sur-Seine',
    'room',
    '9 rue Jean-Jacques Rousseau',
    '94200',
    'Ivry-sur-Seine',
  ],
];

const TEAMS = [
  'Maintenance atelier Villeurbanne',
  'Services généraux Paris',
  'Support informatique',
  'Parc automobile',
  'Sécurité et conformité',
  'Électricité et bâtiment',
  'Maintenance de nuit',
  'Prestataire climatisation',
  'Manutention et levage',
  'Infrastructure réseau',
  'Entretien agence Lille',
  'Maintenance agence Bordeaux',
];

/** Preventive work by asset category. */
const PLANS: Record<
  string,
  [
    name: string,
    type: string,
    frequency: string,
    hours: string,
    costCents: number,
    checklist: string[],
  ]
> = {
  INFO: [
    'Nettoyage et mises à jour',
    'preventive',
    'quarterly',
    '0.5',
    0,
    ['Mettre à jour le système', 'Vérifier la sauvegarde', 'Nettoyer clavier et écran'],
  ],
  MOB: [
    'Inspection du mobilier',
    'inspection',
    'yearly',
    '0.25',
    0,
    ['Contrôler la stabilité', 'Tester le vérin de réglage'],
  ],
  VEH: [
    'Entretien constructeur',
    'preventive',
    'yearly',
    '3',
    38_000,
    ['Vidange et filtres', 'Contrôle des freins', 'Pression des pneus'],
  ],
  MACH: [
    'Révision annuelle',
    'preventive',
    'yearly',
    '6',
    145_000,
    ['Contrôler le circuit hydraulique', 'Graisser les guidages', 'Tester les sécurités'],
  ],
  AGEN: [
    'Inspection des aménagements',
    'inspection',
    'yearly',
    '1',
    0,
    ['Contrôler les fixations', 'Vérifier les portes'],
  ],
  LOG: [
    'Mise à jour de version',
    'preventive',
    'half_yearly',
    '2',
    0,
    ['Installer la mise à jour', 'Vérifier les licences'],
  ],
  SRV: [
    'Maintenance préventive serveur',
    'preventive',
    'quarterly',
    '2',
    0,
    ['Mettre à jour le firmware', 'Contrôler les disques', 'Tester la restauration'],
  ],
  TEL: [
    'Inspection des téléphones',
    'inspection',
    'half_yearly',
    '0.25',
    0,
    ['Contrôler l’écran et la batterie', 'Mettre à jour le système'],
  ],
  MANU: [
    'Vérification générale périodique (VGP)',
    'regulatory_check',
    'half_yearly',
    '2',
    24_000,
    ['Contrôler les chaînes de levage', 'Tester le frein de parc', 'Vérifier les fourches'],
  ],
  TERR: [
    'Débroussaillage',
    'preventive',
    'yearly',
    '8',
    90_000,
    ['Débroussailler les abords', 'Contrôler la clôture'],
  ],
  CONS: [
    'Contrôle des installations électriques',
    'regulatory_check',
    'yearly',
    '4',
    65_000,
    ['Vérifier les tableaux', 'Tester les différentiels', 'Remettre le rapport'],
  ],
  OUT: [
    'Étalonnage',
    'calibration',
    'yearly',
    '1',
    12_000,
    ['Contrôler le faux-rond de la broche', 'Régler la table'],
  ],
};

/** Breakdowns reported, by asset category. */
const BREAKDOWNS: Record<string, string> = {
  INFO: 'Écran qui scintille au démarrage',
  MOB: 'Vérin de réglage en hauteur bloqué',
  VEH: 'Voyant moteur allumé',
  MACH: 'Fuite hydraulique sur le vérin principal',
  AGEN: 'Porte vitrée qui ne ferme plus',
  LOG: 'Licence refusée par le serveur de jetons',
  SRV: 'Disque en erreur, RAID dégradé',
  TEL: 'Batterie qui ne tient plus la charge',
  MANU: 'Fourches voilées après un choc',
  TERR: 'Clôture arrachée par la tempête',
  CONS: 'Infiltration en toiture',
  OUT: 'Broche qui vibre en charge',
};

const LEASES: [
  description: string,
  type: string,
  months: number,
  instalment: number,
  deposit: number,
  option: number | null,
  rate: string | null,
][] = [
  ['Peugeot e-208 — véhicule de service', 'operating', 48, 42_900, 150_000, null, null],
  ['Centre d’usinage DMG Mori CMX 1100 V', 'finance', 84, 310_000, 0, 2_500_000, '4.9'],
  ['Copieur Canon imageRUNNER ADVANCE DX C5850i', 'operating', 60, 18_900, 0, null, null],
  ['Chariot élévateur Toyota Traigo 48', 'finance', 60, 68_000, 0, 450_000, '4.6'],
  ['Renault Kangoo Van E-Tech', 'operating', 48, 51_500, 200_000, null, null],
  ['Flotte de 20 ordinateurs portables Lenovo ThinkPad', 'operating', 36, 96_000, 0, null, null],
  ['Tesla Model Y Propulsion', 'operating', 36, 69_000, 300_000, null, null],
  ['Compresseur Atlas Copco GA 30', 'finance', 72, 52_000, 0, 180_000, '5.1'],
  ['Standard téléphonique et postes IP', 'operating', 60, 12_900, 0, null, null],
  ['Robot de soudage Fanuc ARC Mate 100iD', 'finance', 84, 205_000, 0, 1_200_000, '4.8'],
  ['Citroën ë-Berlingo Van', 'operating', 48, 47_900, 150_000, null, null],
  ['Rayonnages dynamiques entrepôt', 'finance', 60, 38_500, 0, 95_000, '5.3'],
];

const COVERAGES = [
  'all_risks',
  'electronic_equipment',
  'motor',
  'machinery_breakdown',
  'fire',
  'theft',
] as const;

/** The asset categories a cover is for (all risks, fire and theft: any). */
const COVERED: Partial<Record<(typeof COVERAGES)[number], string[]>> = {
  electronic_equipment: ['INFO', 'SRV', 'TEL'],
  motor: ['VEH'],
  machinery_breakdown: ['MACH', 'MANU', 'OUT'],
};

const at = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
const day = (value: unknown) => String(value);
const cents = (value: unknown) => Number(value ?? 0);

interface ScheduleLine {
  schedule_date: string;
  depreciation_cents: number;
  accumulated_cents: number;
  book_value_cents: number;
}

/**
 * A yearly depreciation schedule closing on 31 December, the first year pro rata of the months
 * in service: straight-line spreads the depreciable value evenly over the useful life; declining
 * balance applies the rate to the remaining value and switches to straight-line once that is
 * more (French dégressif). The last line takes what remains, so the lines sum to cost minus
 * residual value exactly.
 */
export function depreciationLines(o: {
  method: string;
  costCents: number;
  residualCents: number;
  startDate: string;
  lifeMonths: number;
  decliningRate?: number;
}): ScheduleLine[] {
  const depreciable = o.costCents - o.residualCents;
  if (o.method === 'none' || depreciable <= 0) return [];
  const lines: ScheduleLine[] = [];
  let year = Number(o.startDate.slice(0, 4));
  let monthsLeft = o.lifeMonths;
  let inYear = 12 - Number(o.startDate.slice(5, 7)) + 1;
  let accumulated = 0;
  while (monthsLeft > 0) {
    const months = Math.min(inYear, monthsLeft);
    const remaining = depreciable - accumulated;
    const straight = (depreciable * months) / o.lifeMonths;
    const amount =
      months === monthsLeft
        ? remaining
        : Math.min(
            remaining,
            roundCents(
              o.method === 'declining_balance'
                ? Math.max(
                    (remaining * (o.decliningRate ?? 0) * months) / 1200,
                    (remaining * months) / monthsLeft,
                  )
                : straight,
            ),
          );
    accumulated += amount;
    lines.push({
      schedule_date: `${year}-12-31`,
      depreciation_cents: amount,
      accumulated_cents: accumulated,
      book_value_cents: o.costCents - accumulated,
    });
    monthsLeft -= months;
    inYear = 12;
    year++;
  }
  return lines;
}

function categoryOf(ctx: SeedContext, asset: SeededRecord): SeededRecord | undefined {
  return recordWith(ctx, 'asset_category', 'id', asset.asset_category_id);
}

function categoryCode(ctx: SeedContext, asset: SeededRecord): string {
  return String(categoryOf(ctx, asset)?.code ?? 'INFO');
}

/** The schedule of an asset, if it has one with lines. */
function scheduleOf(ctx: SeedContext, assetId: unknown): SeededRecord | undefined {
  return recordsOf(ctx, 'depreciation_schedule').find(
    (s) => s.asset_id === assetId && (s.lines as unknown[]).length > 0,
  );
}

const scheduleLines = (schedule: SeededRecord | undefined) =>
  (schedule?.lines as ScheduleLine[] | undefined) ?? [];

/** Net book value of an asset on a day: its cost less the depreciation dated up to then. */
function bookValueOn(ctx: SeedContext, asset: SeededRecord, on: string): number {
  const done = scheduleLines(scheduleOf(ctx, asset.id)).filter((l) => l.schedule_date <= on);
  return cents(asset.acquisition_cost_cents) - (done.at(-1)?.accumulated_cents ?? 0);
}

const STEP_MONTHS: Record<string, number> = {
  daily: 0,
  weekly: 0,
  monthly: 1,
  quarterly: 3,
  half_yearly: 6,
  yearly: 12,
};

/**
 * Fixed assets that agree with their category, their schedule with its asset (amounts summing to
 * cost minus residual value), depreciation entries with their schedule's lines, maintenance
 * with the assets and teams it concerns.
 */
export const assetsSeed: SeedOverrides = {
  asset_category(ctx) {
    const [code, name, method, life, rate, office] = at(CATEGORIES, ctx.n);
    return {
      code,
      name,
      depreciation_method: method,
      useful_life_months: life,
      declining_rate: rate,
      frequency_months: 12,
      prorata_temporis: true,
      asset_account_id: office ? accountId(ctx, '218300') : null,
      depreciation_account_id: office ? accountId(ctx, '281830') : null,
      expense_account_id: method === 'none' ? null : accountId(ctx, '681120'),
    };
  },
  asset_location(ctx) {
    const [code, name, type, street, postalCode, city] = at(LOCATIONS, ctx.n);
    return {
      code,
      name,
      location_type: type,
      parent_id: null,
      warehouse_id: code === 'LYS-ENT' ? ctx.pick('warehouse', 0).id : null,
      responsible_id: ctx.pick('employee').id,
      street,
      street2: null,
      postal_code: postalCode,
      city,
      state: null,
      country_code: city ? 'FR' : null,
    };
  },
  asset(ctx) {
    const [name, manufacturer, model, cost, residual, location] = at(ASSETS, ctx.n);
    const [code] = at(CATEGORIES, ctx.n);
    const category = recordWith(ctx, 'asset_category', 'code', code) ?? ctx.pick('asset_category');
    const acquired = ctx.daysAfter('2022-03-14', ctx.n * 97);
    const personal = ['INFO', 'TEL', 'MOB', 'VEH'].includes(String(category.code));
    return {
      name,
      asset_category_id: category.id,
      description: `${category.name} — ${name}`,
      manufacturer,
      model,
      // Land, buildings and fittings have no serial number or tag.
      ...(model ? {} : { serial_number: null, asset_tag: null }),
      acquisition_date: acquired,
      in_service_date: ctx.daysAfter(acquired, 7 + (ctx.n % 10)),
      acquisition_cost_cents: cost,
      residual_value_cents: residual,
      currency: 'EUR',
      depreciation_method: category.depreciation_method,
      useful_life_months: category.useful_life_months,
      location_id: ctx.pick('asset_location', location).id,
      custodian_id: personal ? ctx.pick('employee').id : null,
      department_id: ctx.pick('department').id,
      cost_center_id: ctx.pick('cost_center').id,
      supplier_id: String(category.code) === 'TERR' ? null : ctx.pick('supplier').id,
      purchase_order_id: null,
      supplier_invoice_id: null,
      parent_asset_id: null,
      warranty_expiry_date: String(category.code) === 'TERR' ? null : monthsAfter(acquired, 24),
    };
  },
  depreciation_schedule(ctx) {
    const asset = ctx.pick('asset');
    const category = categoryOf(ctx, asset);
    const method = String(
      asset.depreciation_method ?? category?.depreciation_method ?? 'straight_line',
    );
    const life = Number(asset.useful_life_months ?? category?.useful_life_months ?? 60);
    const rate = category?.declining_rate ? Number(category.declining_rate) : undefined;
    const start = day(asset.in_service_date ?? asset.acquisition_date);
    const cost = cents(asset.acquisition_cost_cents);
    const residual = cents(asset.residual_value_cents);
    return {
      asset_id: asset.id,
      depreciation_book: 'company',
      depreciation_method: method,
      start_date: start,
      useful_life_months: life,
      frequency_months: 12,
      declining_rate: method === 'declining_balance' ? (category?.declining_rate ?? null) : null,
      depreciable_cents: Math.max(0, cost - residual),
      currency: asset.currency ?? 'EUR',
      lines: depreciationLines({
        method,
        costCents: cost,
        residualCents: residual,
        startDate: start,
        lifeMonths: life,
        ...(rate ? { decliningRate: rate } : {}),
      }),
    };
  },
  depreciation_entry(ctx) {
    // Each entry posts one line of a schedule.
    const schedules = recordsOf(ctx, 'depreciation_schedule').filter(
      (s) => (s.lines as unknown[]).length > 0,
    );
    const schedule = schedules.length
      ? schedules[ctx.n % schedules.length]!
      : ctx.pick('depreciation_schedule');
    // The last year-ends closed: 2025's for every schedule, then 2024's…
    const lines = scheduleLines(schedule);
    const back = Math.floor(ctx.n / Math.max(1, schedules.length));
    const closed = lines.filter((l) => l.schedule_date < `${YEAR}-01-01`);
    const line = closed.at(-1 - back) ?? closed[0] ?? lines[0];
    const date = line?.schedule_date ?? endOfMonth(`${YEAR}-12-01`);
    return {
      asset_id: schedule.asset_id,
      depreciation_schedule_id: schedule.id,
      entry_date: date,
      amount_cents: line?.depreciation_cents ?? 0,
      accumulated_cents: line?.accumulated_cents ?? 0,
      book_value_cents: line?.book_value_cents ?? 0,
      currency: schedule.currency ?? 'EUR',
      accounting_period_id: periodOf(ctx, date),
      journal_entry_id: null,
    };
  },
  asset_movement(ctx) {
    const purpose = at(['transfer', 'issue', 'return'], ctx.n);
    // Handing over and giving back concern what a person keeps (laptops, phones, cars).
    const asset = findRecord(ctx, 'asset', (a) =>
      purpose === 'transfer' ? a.status === 'en_service' : Boolean(a.custodian_id),
    );
    const other = findRecord(ctx, 'asset_location', (l) => l.id !== asset.location_id, ctx.n + 1);
    const line = {
      asset_id: asset.id,
      from_location_id: asset.location_id ?? null,
      to_location_id: purpose === 'transfer' ? other.id : (asset.location_id ?? null),
      from_custodian_id: purpose === 'issue' ? null : (asset.custodian_id ?? null),
      // Issued to whoever keeps it now; given back by them.
      to_custodian_id: purpose === 'return' ? null : (asset.custodian_id ?? null),
    };
    const inService = day(asset.in_service_date ?? asset.acquisition_date);
    return {
      // Handed over when put in service; moved or given back later.
      movement_date: purpose === 'issue' ? inService : ctx.daysAfter(inService, 60 + ctx.n * 13),
      purpose,
      reason: {
        transfer: `Transfert vers ${other.name}`,
        issue: 'Remise au salarié (nouvel arrivant)',
        return: 'Restitution au départ du salarié',
      }[purpose],
      lines: [line],
    };
  },
  asset_revaluation(ctx) {
    const schedule = findRecord(
      ctx,
      'depreciation_schedule',
      (s) => (s.lines as unknown[]).length > 0,
    );
    // At the last year-end closed before the current year.
    const closed = scheduleLines(schedule).filter((l) => l.schedule_date < `${YEAR}-01-01`);
    const line = closed.at(-1) ?? scheduleLines(schedule)[0];
    const previous = line?.book_value_cents ?? 0;
    const impairment = ctx.n % 3 !== 2;
    const next = roundCents(previous * (impairment ? 0.75 : 1.1));
    return {
      asset_id: schedule.asset_id,
      revaluation_date: line?.schedule_date ?? `${YEAR}-12-31`,
      revaluation_type: impairment ? 'impairment' : 'revaluation',
      previous_value_cents: previous,
      new_value_cents: next,
      adjustment_cents: next - previous,
      currency: 'EUR',
      journal_entry_id: null,
    };
  },
  asset_disposal(ctx) {
    // Each asset once: those already sold or scrapped first, then planned disposals of others.
    const assets = recordsOf(ctx, 'asset');
    const ordered = [
      ...assets.filter((a) => a.status === 'cede'),
      ...assets.filter(
        (a) =>
          a.status !== 'cede' &&
          a.status !== 'annule' &&
          !['TERR', 'CONS'].includes(categoryCode(ctx, a)),
      ),
    ];
    const asset = ordered.length ? ordered[ctx.n % ordered.length]! : ctx.pick('asset');
    const type = at(['sale', 'scrap', 'sale', 'donation', 'loss'], ctx.n);
    const date = ctx.daysAfter(`${YEAR}-02-15`, ctx.n * 9);
    const book = bookValueOn(ctx, asset, date);
    const proceeds = type === 'sale' ? roundCents(book * (0.8 + (ctx.n % 5) * 0.1)) + 50_000 : 0;
    return {
      asset_id: asset.id,
      disposal_date: date,
      disposal_type: type,
      proceeds_cents: proceeds,
      book_value_cents: book,
      gain_loss_cents: proceeds - book,
      currency: 'EUR',
      customer_id: type === 'sale' ? ctx.pick('customer').id : null,
      invoice_id: null,
      journal_entry_id: null,
      reason: {
        sale: 'Renouvellement : revendu à un client',
        scrap: 'Hors d’usage, mis au rebut',
        donation: 'Don à une association',
        loss: 'Volé (plainte déposée)',
      }[type],
    };
  },
  maintenance_team(ctx) {
    const leader = ctx.pick('employee');
    const members = [
      { employee_id: leader.id, role: 'supervisor' },
      { employee_id: ctx.pick('employee', ctx.n + 1).id, role: 'technician' },
      {
        employee_id: ctx.pick('employee', ctx.n + 2).id,
        role: ctx.n % 3 === 2 ? 'contractor' : 'technician',
      },
    ];
    return {
      name: at(TEAMS, ctx.n),
      leader_id: leader.id,
      department_id: ctx.pick('department').id,
      members: [...new Map(members.map((m) => [m.employee_id, m])).values()],
    };
  },
  maintenance_plan(ctx) {
    const asset = ctx.pick('asset');
    const [name, type, frequency, hours, cost, checklist] =
      PLANS[categoryCode(ctx, asset)] ?? PLANS.INFO!;
    const team = ctx.pick('maintenance_team');
    const start = day(asset.in_service_date ?? asset.acquisition_date);
    const step = STEP_MONTHS[frequency] ?? 12;
    let next = start;
    while (step > 0 && next <= `${YEAR}-03-01`) next = monthsAfter(next, step);
    return {
      name: `${name} — ${asset.name}`,
      asset_id: asset.id,
      maintenance_team_id: team.id,
      assigned_to_id: team.leader_id ?? ctx.pick('employee').id,
      maintenance_type: type,
      frequency,
      start_date: start,
      end_date: null,
      next_due_date: next,
      estimated_hours: hours,
      estimated_cost_cents: cost,
      checklist: checklist.map((task, i) => ({
        task,
        is_mandatory: i === 0 || type === 'regulatory_check',
      })),
    };
  },
  maintenance_request(ctx) {
    const preventive = ctx.n % 2 === 1;
    const plan = preventive ? ctx.pick('maintenance_plan', Math.floor(ctx.n / 2)) : undefined;
    const asset = plan
      ? (recordWith(ctx, 'asset', 'id', plan.asset_id) ?? ctx.pick('asset'))
      : ctx.pick('asset', Math.floor(ctx.n / 2));
    const team = plan
      ? (recordWith(ctx, 'maintenance_team', 'id', plan.maintenance_team_id) ??
        ctx.pick('maintenance_team'))
      : ctx.pick('maintenance_team');
    const requested = ctx.daysAfter(`${YEAR}-01-08`, ctx.n * 11);
    return {
      subject: plan
        ? String(plan.name)
        : (BREAKDOWNS[categoryCode(ctx, asset)] ?? 'Panne signalée'),
      asset_id: asset.id,
      request_type: preventive ? 'preventive' : 'corrective',
      priority: preventive
        ? 'normal'
        : at(['high', 'urgent', 'normal', 'low'], Math.floor(ctx.n / 2)),
      maintenance_plan_id: plan?.id ?? null,
      maintenance_team_id: team.id,
      technician_id: plan?.assigned_to_id ?? team.leader_id ?? ctx.pick('employee').id,
      request_date: requested,
      scheduled_date: ctx.daysAfter(requested, preventive ? 7 : 1),
      completed_on: null,
      duration_hours: plan?.estimated_hours ?? String(1 + (ctx.n % 4)),
      cost_cents: plan?.estimated_cost_cents ?? 15_000 + (ctx.n % 5) * 9_000,
    };
  },
  asset_repair(ctx) {
    const request = findRecord(ctx, 'maintenance_request', (r) => r.request_type === 'corrective');
    const inHouse = ctx.n % 2 === 0;
    const parts = [0, 1].slice(0, 1 + (ctx.n % 2)).map((i) => {
      const product = ctx.pick('product', ctx.n + i);
      return {
        product_id: product.id,
        description: String(product.name),
        quantity: '1',
        unit_cost_cents: cents(product.cost_price_cents) || 4_500,
      };
    });
    const labour = 9_000 + (ctx.n % 6) * 7_500;
    const failed = day(request.request_date);
    return {
      asset_id: request.asset_id,
      maintenance_request_id: request.id,
      failure_date: failed,
      completion_date: ctx.daysAfter(failed, 2 + (ctx.n % 4)),
      failure_description: request.subject,
      supplier_id: inHouse ? null : ctx.pick('supplier').id,
      supplier_invoice_id: null,
      repair_cost_cents: labour + parts.reduce((sum, p) => sum + p.unit_cost_cents, 0),
      currency: 'EUR',
      capitalized: ctx.n % 5 === 4,
      downtime_hours: String(4 + (ctx.n % 5) * 6),
      parts,
    };
  },
  asset_insurance_policy(ctx) {
    const coverage = at(COVERAGES, ctx.n);
    const covered = COVERED[coverage];
    const insured = [0, 1, 2]
      .map((i) =>
        findRecord(
          ctx,
          'asset',
          (a) => !covered || covered.includes(categoryCode(ctx, a)),
          ctx.n + i,
        ),
      )
      .filter((a, i, all) => all.findIndex((b) => b.id === a.id) === i);
    const total = insured.reduce((sum, a) => sum + cents(a.acquisition_cost_cents), 0);
    const start = `${YEAR - (ctx.n % 2)}-01-01`;
    return {
      policy_number: `POL-${start.slice(0, 4)}-${String(40_210 + ctx.n * 733)}`,
      insurer_id: ctx.pick('supplier').id,
      coverage_type: coverage,
      start_date: start,
      end_date: `${start.slice(0, 4)}-12-31`,
      premium_cents: roundCents((total * (8 + (ctx.n % 7))) / 1000),
      premium_frequency: at(['yearly', 'quarterly', 'monthly'], ctx.n),
      deductible_cents: 50_000 + (ctx.n % 3) * 25_000,
      currency: 'EUR',
      insured_assets: insured.map((a) => ({
        asset_id: a.id,
        insured_value_cents: cents(a.acquisition_cost_cents),
      })),
    };
  },
  asset_lease(ctx) {
    const [description, type, months, instalment, deposit, option, rate] = at(LEASES, ctx.n);
    const start = ctx.daysAfter('2023-06-01', ctx.n * 61);
    const machine = recordsOf(ctx, 'asset').find((a) =>
      ['MACH', 'MANU'].includes(categoryCode(ctx, a)),
    );
    return {
      lessor_id: ctx.pick('supplier').id,
      asset_id: type === 'finance' ? (machine?.id ?? null) : null,
      description,
      lease_type: type,
      contract_reference: `${type === 'finance' ? 'CB' : 'LLD'}-${start.slice(0, 4)}-${String(55_012 + ctx.n * 389)}`,
      start_date: start,
      end_date: ctx.daysAfter(monthsAfter(start, months), -1),
      payment_frequency: 'monthly',
      instalment_cents: instalment,
      deposit_cents: deposit,
      purchase_option_cents: option,
      interest_rate: rate,
      currency: 'EUR',
    };
  },
  asset_count(ctx) {
    // Count a place that holds assets: every asset recorded there is a line.
    const assets = recordsOf(ctx, 'asset');
    const places = [...new Set(assets.map((a) => a.location_id).filter(Boolean))] as string[];
    const place = places.length
      ? (recordWith(ctx, 'asset_location', 'id', places[ctx.n % places.length]) ??
        ctx.pick('asset_location'))
      : ctx.pick('asset_location');
    const there = assets.filter((a) => a.location_id === place.id);
    return {
      location_id: place.id,
      count_date: ctx.n < 6 ? `${YEAR}-06-30` : `${YEAR}-12-18`,
      counted_by_id: place.responsible_id ?? ctx.pick('employee').id,
      lines: there.map((a, i) => {
        const found = !(ctx.n % 5 === 4 && i === there.length - 1);
        return {
          asset_id: a.id,
          found,
          condition: found ? at(['good', 'good', 'worn', 'damaged'], ctx.n + i) : null,
          remark: found ? null : 'Introuvable : déclaration de perte à établir',
        };
      }),
    };
  },
};
