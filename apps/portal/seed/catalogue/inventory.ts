import type { SeedContext, SeededRecord, SeedOverrides } from './context';
import { accountId } from './records';
import {
  binsOf,
  byId,
  cycle,
  inUse,
  type Line,
  lotOf,
  recordsOf,
  stockedProducts,
  stockingWarehouse,
  stockLine,
  stockRoot,
  suppliersFor,
  virtualLocation,
} from './supply-chain';

/**
 * The demo's inventory: real units, a category tree, products that sit in it, three stocking
 * warehouses with a location tree each, and stock documents that move, count and adjust those
 * products between those locations.
 */

/** Units by code (UN/ECE Rec. 20); the records archived by the seed's walk (n % 4 = 3) are imperial. */
const UNITS = [
  { code: 'C62', name: 'Unit', category: 'unit', ratio: '1' },
  { code: 'DZN', name: 'Dozen', category: 'unit', ratio: '12' },
  { code: 'KGM', name: 'Kilogram', category: 'weight', ratio: '1' },
  { code: 'LBR', name: 'Pound', category: 'weight', ratio: '0.453592' },
  { code: 'MTR', name: 'Metre', category: 'length', ratio: '1' },
  { code: 'LTR', name: 'Litre', category: 'volume', ratio: '1' },
  { code: 'GRM', name: 'Gram', category: 'weight', ratio: '0.001' },
  { code: 'FOT', name: 'Foot', category: 'length', ratio: '0.3048' },
  { code: 'TNE', name: 'Tonne', category: 'weight', ratio: '1000' },
  { code: 'HUR', name: 'Hour', category: 'time', ratio: '1' },
  { code: 'MTK', name: 'Square metre', category: 'area', ratio: '1' },
  { code: 'GLL', name: 'Gallon (US)', category: 'volume', ratio: '3.785412' },
] as const;

/** A category tree; `parent` is an index in this list (always an earlier one). */
const CATEGORIES = [
  { code: 'ALL', name: 'All products' },
  { code: 'FURN', name: 'Furniture', parent: 0 },
  { code: 'OFFICE', name: 'Office supplies', parent: 0 },
  { code: 'PROMO', name: 'Promotional items', parent: 0 },
  { code: 'IT', name: 'IT equipment', parent: 0 },
  { code: 'CHAIR', name: 'Chairs', parent: 1 },
  { code: 'DESK', name: 'Desks', parent: 1 },
  { code: 'FAX', name: 'Fax machines', parent: 4 },
  { code: 'RAW', name: 'Raw materials', parent: 0 },
  { code: 'LAPTOP', name: 'Laptops', parent: 4 },
  { code: 'PACK', name: 'Packaging', parent: 0 },
  { code: 'SPARE', name: 'Obsolete spare parts', parent: 0 },
] as const;

/** The product list: category and unit by code; prices in cents. */
export const PRODUCTS = [
  {
    sku: 'CHAIR-ERG',
    name: 'Ergonomic office chair',
    description: 'Synchronous mechanism, adjustable lumbar support and 4D armrests; EN 1335.',
    category: 'CHAIR',
    unit: 'C62',
    type: 'stockable',
    tracking: 'none',
    sale: 24_900,
    cost: 13_200,
    weight: '14.5',
  },
  {
    sku: 'DESK-HA-160',
    name: 'Height-adjustable desk 160 × 80',
    description: 'Dual-motor electric frame, 62–127 cm, melamine top.',
    category: 'DESK',
    unit: 'C62',
    type: 'stockable',
    tracking: 'serial',
    sale: 59_900,
    cost: 34_000,
    weight: '38',
  },
  {
    sku: 'PAP-A4-80',
    name: 'A4 copy paper 80 g, ream of 500',
    description: 'White, 161 CIE, FSC certified.',
    category: 'OFFICE',
    unit: 'C62',
    purchaseUnit: 'DZN',
    type: 'stockable',
    tracking: 'lot',
    sale: 549,
    cost: 310,
    weight: '2.5',
  },
  {
    sku: 'LAP-14-I7',
    name: 'Laptop 14" i7, 16 GB, 512 GB SSD',
    description: 'Three-year on-site warranty, French AZERTY keyboard.',
    category: 'LAPTOP',
    unit: 'C62',
    type: 'stockable',
    tracking: 'serial',
    sale: 129_900,
    cost: 98_000,
    weight: '1.4',
  },
  {
    sku: 'CBL-USBC-2M',
    name: 'USB-C cable, 2 m',
    category: 'IT',
    unit: 'C62',
    type: 'stockable',
    tracking: 'none',
    sale: 1_490,
    cost: 420,
    weight: '0.06',
  },
  {
    sku: 'STL-S235-2',
    name: 'Steel sheet S235, 2 mm',
    description: 'Hot-rolled, 2000 × 1000 mm sheets, sold by weight.',
    category: 'RAW',
    unit: 'KGM',
    type: 'stockable',
    tracking: 'lot',
    sale: 245,
    cost: 180,
    weight: '1',
  },
  {
    sku: 'BOX-604040',
    name: 'Double-wall carton 60 × 40 × 40',
    category: 'PACK',
    unit: 'C62',
    type: 'consumable',
    tracking: 'none',
    sale: 180,
    cost: 95,
    weight: '0.9',
  },
  {
    sku: 'SRV-INSTALL',
    name: 'On-site installation',
    category: 'ALL',
    unit: 'HUR',
    type: 'service',
    tracking: 'none',
    sale: 8_500,
    cost: 5_200,
  },
  {
    sku: 'GLUE-PVA-1L',
    name: 'PVA wood glue, 1 L',
    description: 'D3 water resistance (EN 204); store between 5 and 30 °C.',
    category: 'RAW',
    unit: 'LTR',
    type: 'stockable',
    tracking: 'lot',
    shelfLife: 540,
    sale: 1_290,
    cost: 650,
    weight: '1.1',
  },
  {
    sku: 'MON-27-QHD',
    name: 'Monitor 27" QHD',
    category: 'IT',
    unit: 'C62',
    type: 'stockable',
    tracking: 'serial',
    sale: 34_900,
    cost: 24_100,
    weight: '6.2',
  },
  {
    sku: 'CU-H07-2.5',
    name: 'Copper wire H07V-U 2.5 mm²',
    description: 'Solid conductor, sold by the metre from 100 m drums.',
    category: 'RAW',
    unit: 'MTR',
    type: 'stockable',
    tracking: 'lot',
    sale: 120,
    cost: 70,
    weight: '0.03',
  },
  {
    sku: 'CHAIR-VIS',
    name: 'Visitor chair',
    description: 'Stackable, chrome frame, upholstered seat.',
    category: 'CHAIR',
    unit: 'C62',
    type: 'stockable',
    tracking: 'none',
    sale: 8_900,
    cost: 4_700,
    weight: '6.8',
  },
] as const;

/** Warehouses; the first three are the stocking ones every stock document uses. */
const WAREHOUSES = [
  {
    code: 'LYON-1',
    name: 'Lyon Gerland',
    street: '45 avenue Tony Garnier',
    zip: '69007',
    city: 'Lyon',
    type: 'storage',
  },
  {
    code: 'PARIS-N',
    name: 'Paris Nord – Gennevilliers',
    street: '12 route du Port',
    zip: '92230',
    city: 'Gennevilliers',
    type: 'storage',
  },
  {
    code: 'MRS',
    name: 'Marseille Vitrolles',
    street: "8 avenue de l'Europe",
    zip: '13127',
    city: 'Vitrolles',
    type: 'storage',
  },
  {
    code: 'LILLE',
    name: 'Lille Lesquin',
    street: '3 rue des Saules',
    zip: '59810',
    city: 'Lesquin',
    type: 'storage',
  },
  { code: 'TRANSIT', name: 'Goods in transit', type: 'transit' },
  {
    code: 'SHOP-11',
    name: 'Boutique Paris 11e',
    street: '48 rue Oberkampf',
    zip: '75011',
    city: 'Paris',
    type: 'store',
  },
  {
    code: 'NANTES',
    name: 'Nantes Carquefou',
    street: '17 rue de la Garde',
    zip: '44470',
    city: 'Carquefou',
    type: 'storage',
  },
  {
    code: 'BDX',
    name: 'Bordeaux Mérignac',
    street: '22 avenue John Fitzgerald Kennedy',
    zip: '33700',
    city: 'Mérignac',
    type: 'storage',
  },
  {
    code: 'PLANT',
    name: 'Usine de Villefranche',
    street: '5 rue de la Quarantaine',
    zip: '69400',
    city: 'Villefranche-sur-Saône',
    type: 'production',
  },
  {
    code: 'TLS',
    name: 'Toulouse Fenouillet',
    street: '30 rue de Castelnau',
    zip: '31150',
    city: 'Fenouillet',
    type: 'storage',
  },
  {
    code: 'STRAS',
    name: 'Strasbourg Port du Rhin',
    street: '2 rue du Havre',
    zip: '67100',
    city: 'Strasbourg',
    type: 'storage',
  },
  { code: 'CONSIGN', name: 'Consignment stock at customers', type: 'consignment' },
] as const;

/**
 * Locations: a stock root per stocking warehouse (index 0–2), bins under them, and the virtual
 * partner and inventory-loss locations moves come from or go to. Slots 3, 7 and 11 are the ones
 * the seed archives: old bins.
 */
const LOCATIONS: { warehouse?: number; bin?: string; usage: string; name?: string }[] = [
  { warehouse: 0, usage: 'internal' },
  { warehouse: 1, usage: 'internal' },
  { warehouse: 2, usage: 'internal' },
  { warehouse: 0, bin: 'Z-99', usage: 'internal' },
  { usage: 'supplier', name: 'Partners/Vendors' },
  { usage: 'customer', name: 'Partners/Customers' },
  { usage: 'inventory', name: 'Virtual/Inventory adjustment' },
  { warehouse: 1, bin: 'Z-99', usage: 'internal' },
  { warehouse: 0, bin: 'A-01', usage: 'internal' },
  { warehouse: 1, bin: 'A-01', usage: 'internal' },
  { warehouse: 2, bin: 'A-01', usage: 'internal' },
  { warehouse: 2, bin: 'Z-99', usage: 'internal' },
];

const ATTRIBUTES = [
  { code: 'COLOUR', name: 'Colour', display: 'color', creation: 'always' },
  { code: 'SIZE', name: 'Size', display: 'pills', creation: 'always' },
  { code: 'MATERIAL', name: 'Material', display: 'select', creation: 'dynamic' },
  { code: 'FINISH', name: 'Finish', display: 'radio', creation: 'never' },
  { code: 'LENGTH', name: 'Cable length', display: 'select', creation: 'always' },
  { code: 'VOLTAGE', name: 'Voltage', display: 'select', creation: 'dynamic' },
  { code: 'CAPACITY', name: 'Storage capacity', display: 'pills', creation: 'always' },
  { code: 'LAYOUT', name: 'Keyboard layout', display: 'select', creation: 'always' },
  { code: 'FABRIC', name: 'Fabric', display: 'select', creation: 'dynamic' },
  { code: 'WIDTH', name: 'Width', display: 'pills', creation: 'always' },
  { code: 'PACKSIZE', name: 'Pack size', display: 'select', creation: 'never' },
  { code: 'GRADE', name: 'Grade', display: 'select', creation: 'dynamic' },
] as const;

/** Four values per attribute: [name, abbreviation, swatch]. */
const ATTRIBUTE_VALUES: Record<string, [string, string, string?][]> = {
  COLOUR: [
    ['Black', 'BLK', '#1d1d1b'],
    ['Anthracite grey', 'GRY', '#3c3f41'],
    ['Navy blue', 'NVY', '#1f2a44'],
    ['Bordeaux', 'BDX', '#5e1224'],
  ],
  SIZE: [
    ['S', 'S'],
    ['M', 'M'],
    ['L', 'L'],
    ['XL', 'XL'],
  ],
  MATERIAL: [
    ['Steel', 'STL'],
    ['Oak', 'OAK'],
    ['Beech', 'BCH'],
    ['Aluminium', 'ALU'],
  ],
};

function byCode(records: readonly SeededRecord[], code: string): SeededRecord | undefined {
  return records.find((r) => r.code === code);
}

function unitLine(ctx: SeedContext, code: string): SeededRecord | undefined {
  return byCode(inUse(recordsOf(ctx, 'unit_of_measure')), code);
}

/** An account in use of a type or sub-type (the chart the accounting seed made), if any. */
function accountOf(ctx: SeedContext, kind: { type?: string; subType?: string }, k = 0) {
  const accounts = inUse(recordsOf(ctx, 'account')).filter(
    (a) =>
      !a.is_group &&
      (!kind.type || a.account_type === kind.type) &&
      (!kind.subType || a.sub_type === kind.subType),
  );
  return cycle(accounts, k)?.id ?? null;
}

/** Packages per product code: [type, units, name] for the carton and for the pallet. */
const PACKAGINGS: Record<string, [string, string, string][]> = {
  'CHAIR-ERG': [
    ['carton', '1', 'Carton of 1 chair'],
    ['pallet', '12', 'Pallet of 12 chairs'],
  ],
  'DESK-HA-160': [
    ['carton', '1', 'Kit carton (frame and top)'],
    ['pallet', '8', 'Pallet of 8 desks'],
  ],
  'PAP-A4-80': [
    ['box', '5', 'Box of 5 reams'],
    ['pallet', '240', 'Pallet of 240 reams'],
  ],
  'LAP-14-I7': [
    ['carton', '5', 'Master carton of 5'],
    ['pallet', '60', 'Pallet of 60 laptops'],
  ],
  'CBL-USBC-2M': [
    ['bag', '50', 'Bag of 50 cables'],
    ['carton', '500', 'Carton of 500 cables'],
  ],
  'STL-S235-2': [
    ['other', '314', 'Bundle of 10 sheets (314 kg)'],
    ['pallet', '942', 'Pallet of 30 sheets (942 kg)'],
  ],
  'BOX-604040': [
    ['other', '25', 'Bundle of 25 flat cartons'],
    ['pallet', '500', 'Pallet of 500 flat cartons'],
  ],
  'GLUE-PVA-1L': [
    ['carton', '12', 'Carton of 12 bottles'],
    ['pallet', '576', 'Pallet of 48 cartons'],
  ],
  'MON-27-QHD': [
    ['carton', '1', 'Carton of 1 monitor'],
    ['pallet', '36', 'Pallet of 36 monitors'],
  ],
  'CU-H07-2.5': [
    ['drum', '100', 'Drum of 100 m'],
    ['drum', '500', 'Drum of 500 m'],
  ],
  'CHAIR-VIS': [
    ['carton', '2', 'Carton of 2 chairs'],
    ['pallet', '40', 'Pallet of 40 chairs'],
  ],
};

/** Outer size (length, width, height in cm) of a package by type; bundles vary. */
const SIZES_CM: Record<string, [string, string, string]> = {
  carton: ['60', '40', '40'],
  box: ['30', '22', '27'],
  bag: ['50', '35', '20'],
  drum: ['60', '60', '45'],
  pallet: ['120', '80', '150'],
};

export const inventorySeed: SeedOverrides = {
  unit_of_measure(ctx) {
    const unit = UNITS[ctx.n % UNITS.length]!;
    return { code: unit.code, name: unit.name, category: unit.category, ratio: unit.ratio };
  },
  uom_conversion(ctx) {
    const products = recordsOf(ctx, 'product');
    // Generic conversions, then product-specific ones: what a sheet, a drum or a chair weighs
    // or holds, for freight and for buying in another unit than the one stocked.
    const candidates = [
      { from: 'DZN', to: 'C62', factor: '12' },
      { from: 'GRM', to: 'KGM', factor: '0.001' },
      { product: 5, from: 'C62', to: 'KGM', factor: '31.4' },
      { from: 'TNE', to: 'KGM', factor: '1000' },
      { product: 10, from: 'C62', to: 'MTR', factor: '100' },
      { product: 8, from: 'C62', to: 'LTR', factor: '1' },
      { product: 2, from: 'C62', to: 'KGM', factor: '2.5' },
      { product: 0, from: 'C62', to: 'KGM', factor: '14.5' },
      { product: 1, from: 'C62', to: 'KGM', factor: '38' },
      { product: 3, from: 'C62', to: 'KGM', factor: '1.4' },
      { product: 9, from: 'C62', to: 'KGM', factor: '6.2' },
      { product: 11, from: 'C62', to: 'KGM', factor: '6.8' },
    ].flatMap(({ product, from, to, factor }) => {
      const fromUnit = unitLine(ctx, from);
      const toUnit = unitLine(ctx, to);
      const item = product === undefined ? undefined : products[product];
      if (!fromUnit || !toUnit || (product !== undefined && !item)) return [];
      return [
        {
          product_id: item?.id ?? null,
          from_unit_of_measure_id: fromUnit.id,
          to_unit_of_measure_id: toUnit.id,
          factor,
        },
      ];
    });
    return cycle(candidates, ctx.n) ?? {};
  },
  product_category(ctx) {
    const category = CATEGORIES[ctx.n % CATEGORIES.length]!;
    const own = recordsOf(ctx, 'product_category');
    const parent = 'parent' in category ? own[category.parent] : undefined;
    return {
      code: category.code,
      name: category.name,
      parent_id: parent?.id ?? null,
      // Goods: sold to 707 (ventes de marchandises), bought to 607 (SPEC §17's French chart).
      income_account_id: accountId(ctx, '707000'),
      expense_account_id: accountId(ctx, '607000'),
    };
  },
  product(ctx) {
    const item = PRODUCTS[ctx.n % PRODUCTS.length]!;
    const categories = recordsOf(ctx, 'product_category');
    const category = byCode(categories, item.category) ?? categories[0];
    const unit = unitLine(ctx, item.unit) ?? unitLine(ctx, 'C62');
    const purchaseUnit = 'purchaseUnit' in item ? unitLine(ctx, item.purchaseUnit) : undefined;
    return {
      sku: item.sku,
      name: item.name,
      description: 'description' in item ? item.description : null,
      product_type: item.type,
      // What its sale posts to: a service to 706 (prestations de services), goods to 707.
      revenue_account_id: accountId(ctx, item.type === 'service' ? '706000' : '707000'),
      expense_account_id: item.type === 'service' ? null : accountId(ctx, '607000'),
      category: category?.name ?? null,
      category_id: category?.id ?? null,
      unit_of_measure: unit?.name ?? 'Unit',
      unit_of_measure_id: unit?.id ?? null,
      purchase_unit_of_measure_id: purchaseUnit?.id ?? null,
      sale_price_cents: item.sale,
      cost_price_cents: item.cost,
      tax_rate: '20',
      weight_kg: 'weight' in item ? item.weight : null,
      tracking: item.tracking,
      shelf_life_days: 'shelfLife' in item ? item.shelfLife : null,
      valuation_method:
        item.type === 'service' ? null : ctx.n % 3 === 2 ? 'moving_average' : 'fifo',
      reorder_level: item.type === 'stockable' ? String(10 + (ctx.n % 4) * 10) : null,
      active: true,
    };
  },
  product_attribute(ctx) {
    const attribute = ATTRIBUTES[ctx.n % ATTRIBUTES.length]!;
    return {
      code: attribute.code,
      name: attribute.name,
      display_type: attribute.display,
      variant_creation: attribute.creation,
      sequence: 10 * (1 + (ctx.n % ATTRIBUTES.length)),
    };
  },
  product_attribute_value(ctx) {
    // Four values for each of the first attributes (colour, size, material).
    const attributes = recordsOf(ctx, 'product_attribute');
    const attribute = cycle(attributes, Math.floor(ctx.n / 4)) ?? ctx.pick('product_attribute');
    const values = ATTRIBUTE_VALUES[String(attribute.code)] ?? ATTRIBUTE_VALUES.MATERIAL!;
    const [name, abbreviation, color] = values[ctx.n % 4]!;
    return {
      attribute_id: attribute.id,
      name,
      abbreviation,
      html_color: color ?? null,
      sequence: 10 * (1 + (ctx.n % 4)),
    };
  },
  product_variant(ctx) {
    // The chairs come in colours and sizes, the desk in colours: each record another combination.
    const products = recordsOf(ctx, 'product');
    const templates = [products[0], products[1], products[11]].filter((p): p is SeededRecord =>
      Boolean(p),
    );
    const t = ctx.n % templates.length;
    const round = Math.floor(ctx.n / templates.length);
    const template = templates[t]!;
    const ofAttribute = (code: string) => {
      const attribute = recordsOf(ctx, 'product_attribute').find((a) => a.code === code);
      return recordsOf(ctx, 'product_attribute_value').filter(
        (v) => v.attribute_id === attribute?.id,
      );
    };
    const chosen = [
      cycle(ofAttribute('COLOUR'), round + t),
      template.sku === 'DESK-HA-160' ? undefined : cycle(ofAttribute('SIZE'), round * 3 + t),
    ].filter((v): v is SeededRecord => Boolean(v));
    const sizeExtra: Record<string, number> = { S: -1_000, M: 0, L: 1_000, XL: 2_500 };
    return {
      product_id: template.id,
      sku: [template.sku, ...chosen.map((v) => v.abbreviation)].join('-'),
      name: `${template.name} – ${chosen.map((v) => v.name).join(' / ')}`,
      attribute_values: chosen.map((v) => ({
        attribute_id: v.attribute_id,
        attribute_value_id: v.id,
      })),
      price_extra_cents: chosen.reduce((sum, v) => sum + (sizeExtra[String(v.name)] ?? 0), 0),
      cost_price_cents: template.cost_price_cents,
      weight_kg: template.weight_kg ?? null,
    };
  },
  product_packaging(ctx) {
    // For each stocked product, the smaller package and the larger one.
    const products = stockedProducts(ctx);
    const product = cycle(products, Math.floor(ctx.n / 2)) ?? ctx.pick('product');
    const larger = ctx.n % 2 === 1;
    const [type, quantity, name] = PACKAGINGS[String(product.sku)]?.[larger ? 1 : 0] ?? [
      'carton',
      '10',
      'Carton of 10',
    ];
    const weight =
      Number(product.weight_kg ?? 1) * Number(quantity) + (type === 'pallet' ? 25 : 0.5);
    const pallet = type === 'pallet';
    const size = SIZES_CM[type];
    return {
      product_id: product.id,
      name,
      packaging_type: type,
      quantity,
      weight_kg: weight.toFixed(2),
      length_cm: size?.[0] ?? null,
      width_cm: size?.[1] ?? null,
      height_cm: size?.[2] ?? null,
      purchasable: true,
      sellable: !pallet,
    };
  },
  warehouse(ctx) {
    const w = WAREHOUSES[ctx.n % WAREHOUSES.length]!;
    return {
      code: w.code,
      name: w.name,
      warehouse_type: w.type,
      street: 'street' in w ? w.street : null,
      street2: null,
      postal_code: 'zip' in w ? w.zip : null,
      city: 'city' in w ? w.city : null,
      state: null,
      country_code: 'FR',
      stock_account_id: accountId(ctx, '370000'),
      active: true,
    };
  },
  stock_location(ctx) {
    const spec = LOCATIONS[ctx.n % LOCATIONS.length]!;
    const common = { max_weight_kg: null, removal_strategy: null, is_scrap: false };
    if (spec.warehouse === undefined) {
      return {
        ...common,
        code: spec.name!.toUpperCase().replace(/ /g, '-'),
        name: spec.name,
        usage: spec.usage,
        warehouse_id: null,
        parent_id: null,
        barcode: null,
      };
    }
    const warehouse = stockingWarehouse(ctx, spec.warehouse);
    const root = recordsOf(ctx, 'stock_location')[spec.warehouse];
    const code = `${warehouse.code}/STOCK`;
    if (!spec.bin || !root) {
      return {
        ...common,
        code,
        name: `${warehouse.name} – stock`,
        usage: 'internal',
        warehouse_id: warehouse.id,
        parent_id: null,
        removal_strategy: 'fifo',
        barcode: code.replace(/\//g, '-'),
      };
    }
    const scrap = spec.bin === 'Z-99';
    return {
      code: `${code}/${spec.bin}`,
      name: scrap ? 'Damaged goods (Z-99)' : `Aisle ${spec.bin[0]}, shelf ${spec.bin.slice(2)}`,
      usage: 'internal',
      warehouse_id: warehouse.id,
      parent_id: root.id,
      is_scrap: scrap,
      removal_strategy: scrap ? null : 'fefo',
      max_weight_kg: scrap ? '500' : '1200',
      barcode: `${code}/${spec.bin}`.replace(/\//g, '-'),
    };
  },
  lot(ctx) {
    const tracked = recordsOf(ctx, 'product').filter((p) => p.tracking === 'lot');
    const product = cycle(tracked, ctx.n) ?? ctx.pick('product');
    const supplier = cycle(
      suppliersFor(ctx, product),
      Math.floor(ctx.n / Math.max(1, tracked.length)),
    );
    const made = ctx.daysAfter('2025-10-06', ctx.n * 17);
    // Only products with a shelf life expire (glue does, steel and paper do not).
    const expiry = product.shelf_life_days
      ? ctx.daysAfter(made, Number(product.shelf_life_days))
      : null;
    return {
      lot_number: `L${made.slice(2, 4)}${made.slice(5, 7)}-${String(101 + ctx.n).padStart(4, '0')}`,
      product_id: product.id,
      supplier_id: supplier?.id ?? null,
      supplier_lot_number: `B-${ctx.faker.string.numeric(6)}`,
      manufacturing_date: made,
      expiry_date: expiry,
      best_before_date: expiry ? ctx.daysAfter(expiry, -60) : null,
      notes: null,
    };
  },
  serial_number(ctx) {
    const tracked = recordsOf(ctx, 'product').filter((p) => p.tracking === 'serial');
    const product = cycle(tracked, ctx.n) ?? ctx.pick('product');
    const receipts = recordsOf(ctx, 'goods_receipt').filter(
      (r) =>
        r.status === 'valide' && (r.lines as Line[]).some((line) => line.product_id === product.id),
    );
    const receipt = cycle(receipts, ctx.n);
    const availability = (
      ['in_stock', 'in_stock', 'delivered', 'reserved', 'in_stock', 'in_repair'] as const
    )[ctx.n % 6];
    const warehouseId = receipt?.warehouse_id ?? stockingWarehouse(ctx, ctx.n).id;
    const bin = cycle(binsOf(ctx, warehouseId), ctx.n);
    const delivered = availability === 'delivered';
    const purchased = receipt
      ? String(receipt.received_on)
      : ctx.daysAfter('2026-01-12', ctx.n * 9);
    return {
      serial_number: `${String(product.sku).split('-')[0]}${purchased.slice(2, 4)}${ctx.faker.string.numeric(7)}`,
      product_id: product.id,
      lot_id: null,
      availability,
      warehouse_id: delivered ? null : warehouseId,
      location_id: delivered ? null : (bin?.id ?? null),
      supplier_id: receipt?.supplier_id ?? cycle(suppliersFor(ctx, product), ctx.n)?.id ?? null,
      goods_receipt_id: receipt?.id ?? null,
      delivery_id: delivered ? ctx.pick('delivery').id : null,
      purchase_date: purchased,
      warranty_expiry_date: ctx.daysAfter(purchased, 730),
      notes: null,
    };
  },
  stock_move(ctx) {
    return stockMove(ctx);
  },
  stock_transfer(ctx) {
    const from = stockingWarehouse(ctx, ctx.n);
    const to = stockingWarehouse(ctx, ctx.n + 1);
    const products = stockedProducts(ctx);
    const shipment = ctx.daysAfter('2026-01-19', ctx.n * 8);
    const lines = [0, 1].slice(0, 1 + (ctx.n % 2)).map((i) => {
      const product = cycle(products, ctx.n + i * 5) ?? ctx.pick('product');
      const quantity = String(product.unit_of_measure === 'Unit' ? 4 + ((ctx.n + i) % 5) * 2 : 50);
      const lot = product.tracking === 'lot' ? lotOf(ctx, product.id, ctx.n) : undefined;
      return { ...stockLine(product, quantity), lot_id: lot?.id ?? null };
    });
    return {
      from_warehouse_id: from.id,
      to_warehouse_id: to.id,
      from_location_id: stockRoot(ctx, from.id)?.id ?? null,
      to_location_id: stockRoot(ctx, to.id)?.id ?? null,
      transit_location_id: null,
      shipment_date: shipment,
      receipt_date: ctx.daysAfter(shipment, 2),
      carrier: (['Geodis', 'DB Schenker', 'Heppner', 'Kuehne+Nagel'] as const)[ctx.n % 4],
      tracking_number: ctx.faker.string.numeric(12),
      lines,
      notes: null,
    };
  },
  stock_count(ctx) {
    // The walk leaves count n in draft (n % 3 = 0), counting (1) or validated (2): draft counts
    // have nothing counted yet, counting ones half of their lines.
    const stage = ctx.n % 3;
    const warehouse = stockingWarehouse(ctx, ctx.n);
    const bins = binsOf(ctx, warehouse.id);
    const products = stockedProducts(ctx);
    const lines = [0, 1, 2, 3].slice(0, 2 + (ctx.n % 3)).map((i) => {
      const product = cycle(products, ctx.n * 3 + i) ?? ctx.pick('product');
      const expected = product.unit_of_measure === 'Unit' ? 12 + (((ctx.n + i) * 7) % 40) : 250;
      const drift = [0, -1, 0, 2, 0, -3][(ctx.n + i) % 6]!;
      const counted = stage === 2 || (stage === 1 && i % 2 === 0);
      const lot = product.tracking === 'lot' ? lotOf(ctx, product.id, i) : undefined;
      return {
        product_id: product.id,
        location_id: cycle(bins, i)?.id ?? null,
        lot_id: lot?.id ?? null,
        expected_quantity: String(expected),
        counted_quantity: counted ? String(expected + drift) : null,
        unit_of_measure: product.unit_of_measure,
        unit_cost_cents: product.cost_price_cents,
      };
    });
    return {
      warehouse_id: warehouse.id,
      location_id: stockRoot(ctx, warehouse.id)?.id ?? null,
      count_date: ctx.daysAfter('2026-01-30', ctx.n * 14),
      count_type: (['cycle', 'spot', 'full'] as const)[ctx.n % 3],
      lines,
      notes: null,
    };
  },
  stock_adjustment(ctx) {
    // The first even ones book the differences of each validated count (one adjustment per
    // count); the others write off damaged or expired goods, or book goods found.
    const counts = recordsOf(ctx, 'stock_count').filter(
      (c) =>
        c.status === 'valide' &&
        (c.lines as Line[]).some((l) => Number(l.counted_quantity) !== Number(l.expected_quantity)),
    );
    const source = ctx.n % 2 === 0 ? counts[ctx.n / 2] : undefined;
    const expense = accountOf(ctx, { type: 'expense' }, ctx.n);
    if (source) {
      return {
        warehouse_id: source.warehouse_id,
        adjustment_date: source.count_date,
        reason: 'count_difference',
        stock_count_id: source.id,
        account_id: expense,
        lines: (source.lines as Line[])
          .filter((line) => Number(line.counted_quantity) !== Number(line.expected_quantity))
          .map((line) => ({
            product_id: line.product_id,
            location_id: line.location_id,
            lot_id: line.lot_id,
            quantity: String(Number(line.counted_quantity) - Number(line.expected_quantity)),
            unit_of_measure: line.unit_of_measure,
            unit_cost_cents: line.unit_cost_cents,
          })),
        notes: null,
      };
    }
    const warehouse = stockingWarehouse(ctx, ctx.n);
    const product = cycle(stockedProducts(ctx), ctx.n) ?? ctx.pick('product');
    const lot = product.tracking === 'lot' ? lotOf(ctx, product.id, ctx.n) : undefined;
    const reason = (['damage', 'expiry', 'loss', 'found'] as const)[ctx.n % 4];
    return {
      warehouse_id: warehouse.id,
      adjustment_date: ctx.daysAfter('2026-02-03', ctx.n * 11),
      reason: reason === 'expiry' && !lot?.expiry_date ? 'damage' : reason,
      stock_count_id: null,
      account_id: expense,
      lines: [
        {
          product_id: product.id,
          location_id: cycle(binsOf(ctx, warehouse.id), ctx.n)?.id ?? null,
          lot_id: lot?.id ?? null,
          quantity: reason === 'found' ? '1' : String(-(1 + (ctx.n % 3))),
          unit_of_measure: product.unit_of_measure,
          unit_cost_cents: product.cost_price_cents,
        },
      ],
      notes: null,
    };
  },
  reorder_rule(ctx) {
    const products = recordsOf(ctx, 'product').filter((p) => p.product_type === 'stockable');
    const product = cycle(products, ctx.n) ?? ctx.pick('product');
    const warehouse = stockingWarehouse(ctx, Math.floor(ctx.n / Math.max(1, products.length)));
    const price = inUse(recordsOf(ctx, 'supplier_price')).find((p) => p.product_id === product.id);
    const supplier = price
      ? byId(ctx, 'supplier', price.supplier_id)
      : cycle(suppliersFor(ctx, product), 0);
    // Outside the main warehouse, some products are replenished from it rather than bought.
    const transfer = warehouse.id !== stockingWarehouse(ctx, 0).id && ctx.n % 3 === 2;
    const min = product.unit_of_measure === 'Unit' ? 10 * (1 + (ctx.n % 3)) : 200;
    return {
      product_id: product.id,
      warehouse_id: warehouse.id,
      location_id: stockRoot(ctx, warehouse.id)?.id ?? null,
      min_quantity: String(min),
      max_quantity: String(min * 4),
      multiple_quantity: product.unit_of_measure === 'Unit' ? '5' : '50',
      replenishment_method: transfer ? 'transfer' : 'buy',
      trigger: ctx.n % 4 === 1 ? 'manual' : 'auto',
      supplier_id: transfer ? null : (supplier?.id ?? null),
      lead_time_days: transfer ? 2 : Number(price?.lead_time_days ?? supplier?.lead_time_days ?? 7),
    };
  },
};

/**
 * Moves of five kinds in turn: a validated receipt put away, a transfer leaving its
 * warehouse, a delivery to a customer, a loss written off, and a move between shelves. A
 * serial-tracked unit moves from where it is.
 */
function stockMove(ctx: SeedContext): Record<string, unknown> {
  const kind = ctx.n % 5;
  const forProduct = (product: SeededRecord, quantity: string, lot?: unknown) => {
    const serial = cycle(
      recordsOf(ctx, 'serial_number').filter((s) => s.product_id === product.id && s.location_id),
      ctx.n,
    );
    const variants = inUse(recordsOf(ctx, 'product_variant')).filter(
      (v) => v.product_id === product.id,
    );
    return {
      serial,
      fields: {
        product_id: product.id,
        variant_id: cycle(variants, ctx.n)?.id ?? null,
        lot_id:
          lot ?? (product.tracking === 'lot' ? (lotOf(ctx, product.id, ctx.n)?.id ?? null) : null),
        serial_number_id: product.tracking === 'serial' ? (serial?.id ?? null) : null,
        quantity: product.tracking === 'serial' && serial ? '1' : quantity,
        unit_of_measure_id: product.unit_of_measure_id ?? null,
        unit_cost_cents: product.cost_price_cents ?? null,
        goods_receipt_id: null,
        delivery_id: null,
        stock_transfer_id: null,
        production_order_id: null,
        origin: null,
        notes: null,
      },
    };
  };
  const productOf = (id: unknown) => byId(ctx, 'product', id) ?? ctx.pick('product');

  const receipt = cycle(
    recordsOf(ctx, 'goods_receipt').filter((r) => r.status === 'valide'),
    ctx.n,
  );
  const supplierLocation = virtualLocation(ctx, 'supplier');
  if (kind === 0 && receipt && supplierLocation) {
    const line = (receipt.lines as Line[])[0]!;
    const { fields } = forProduct(productOf(line.product_id), String(line.quantity), line.lot_id);
    return {
      ...fields,
      move_type: 'receipt',
      from_location_id: supplierLocation.id,
      to_location_id: receipt.location_id ?? stockRoot(ctx, receipt.warehouse_id)?.id,
      move_date: receipt.received_on,
      goods_receipt_id: receipt.id,
      origin: receipt.number,
    };
  }
  const transfer = cycle(
    recordsOf(ctx, 'stock_transfer').filter((t) => t.status !== 'brouillon' && t.from_location_id),
    ctx.n,
  );
  if (kind === 1 && transfer) {
    const line = (transfer.lines as Line[])[0]!;
    const { fields } = forProduct(productOf(line.product_id), String(line.quantity), line.lot_id);
    return {
      ...fields,
      move_type: 'internal',
      from_location_id: transfer.from_location_id,
      to_location_id: transfer.to_location_id ?? transfer.from_location_id,
      move_date: transfer.shipment_date,
      stock_transfer_id: transfer.id,
      origin: transfer.number,
    };
  }

  const product = cycle(stockedProducts(ctx), ctx.n) ?? ctx.pick('product');
  const { serial, fields } = forProduct(product, String(1 + (ctx.n % 4)));
  const warehouseId = serial?.warehouse_id ?? stockingWarehouse(ctx, ctx.n).id;
  const bins = binsOf(ctx, warehouseId);
  const here = serial?.location_id ?? cycle(bins, ctx.n)?.id ?? ctx.pick('stock_location').id;
  const date = ctx.daysAfter('2026-01-14', ctx.n * 6);
  const customerLocation = virtualLocation(ctx, 'customer');
  const lossLocation = virtualLocation(ctx, 'inventory');
  if (kind === 2 && customerLocation) {
    return {
      ...fields,
      move_type: 'delivery',
      from_location_id: here,
      to_location_id: customerLocation.id,
      move_date: date,
    };
  }
  if (kind === 3 && lossLocation) {
    return {
      ...fields,
      move_type: 'adjustment',
      from_location_id: here,
      to_location_id: lossLocation.id,
      move_date: date,
      origin: 'Damaged in handling',
    };
  }
  const root = stockRoot(ctx, warehouseId);
  if (!root || root.id === here) {
    // No shelf to put it on: it leaves for a customer instead.
    return {
      ...fields,
      move_type: 'delivery',
      from_location_id: here,
      to_location_id: customerLocation?.id ?? here,
      move_date: date,
    };
  }
  return {
    ...fields,
    move_type: 'internal',
    from_location_id: root.id,
    to_location_id: here,
    move_date: date,
  };
}
