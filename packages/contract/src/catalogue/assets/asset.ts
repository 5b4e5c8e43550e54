import { defineResource } from '../../registry/define';
import { date, integer, money, reference, text } from '../../registry/fields';
import { currency, depreciationMethod, notes, title } from '../field-sets';

/** A fixed asset (ERPNext Asset, Odoo account.asset and maintenance.equipment, BC fixed asset). */
export const assets = defineResource({
  name: 'asset',
  path: 'assets',
  module: 'assets',
  description:
    'A fixed asset: what it cost and when, how it depreciates, where it is and who has it; in service, under maintenance, then sold or scrapped.',
  numbering: { prefix: 'AST' },
  fields: {
    name: title('MacBook Pro 14"', { fake: 'product_name' }),
    asset_category_id: reference('asset_category', { required: true, filterable: true }),
    description: text({ maxLength: 2000 }),
    serial_number: text({ maxLength: 100, filterable: true, fake: 'serial_number' }),
    asset_tag: text({
      maxLength: 50,
      filterable: true,
      fake: 'barcode',
      description: 'The label stuck on it (barcode or QR code).',
    }),
    manufacturer: text({ maxLength: 100, fake: 'company', example: 'Apple' }),
    model: text({ maxLength: 100, example: 'A2442' }),
    acquisition_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-01-15',
    }),
    in_service_date: date({
      filterable: true,
      description: 'Depreciation starts from this date.',
      example: '2026-02-01',
    }),
    acquisition_cost_cents: money({
      required: true,
      filterable: true,
      sortable: true,
      min: 0,
      description: 'Gross value: purchase price and costs to bring it into service, before tax.',
      example: 249_900,
    }),
    residual_value_cents: money({
      min: 0,
      description: 'Value expected at the end of its useful life; not depreciated.',
      example: 0,
    }),
    currency: currency(),
    depreciation_method: depreciationMethod({ description: "Empty: the category's." }),
    useful_life_months: integer({
      min: 1,
      max: 1200,
      description: "Empty: the category's.",
      example: 36,
    }),
    location_id: reference('asset_location', { filterable: true }),
    custodian_id: reference('employee', {
      filterable: true,
      description: 'Who has it in their care.',
    }),
    department_id: reference('department', { filterable: true }),
    cost_center_id: reference('cost_center', {
      filterable: true,
      description: 'Where its depreciation is reported.',
    }),
    supplier_id: reference('supplier', { filterable: true }),
    purchase_order_id: reference('purchase_order', { filterable: true }),
    supplier_invoice_id: reference('supplier_invoice', {
      filterable: true,
      description: 'The bill it was bought on.',
    }),
    parent_asset_id: reference('asset', {
      filterable: true,
      description: 'The asset it is a component of.',
    }),
    warranty_expiry_date: date({ filterable: true }),
    notes: notes(),
  },
  lifecycle: {
    initial: 'brouillon',
    editable: ['brouillon', 'en_service', 'en_maintenance'],
    actions: {
      put_in_service: {
        from: ['brouillon'],
        to: 'en_service',
        description: 'In use; depreciation starts.',
      },
      send_to_maintenance: {
        from: ['en_service'],
        to: 'en_maintenance',
        description: 'Out of use while it is repaired or serviced.',
      },
      return_to_service: {
        from: ['en_maintenance'],
        to: 'en_service',
        description: 'Back in use.',
      },
      dispose: {
        from: ['en_service', 'en_maintenance'],
        to: 'cede',
        description: 'Sold or scrapped; depreciation stops.',
      },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Recorded by mistake.' },
    },
  },
});
