import { defineResource } from '../../registry/define';
import { boolean, decimal, enumOf, reference, text } from '../../registry/fields';
import { title } from '../field-sets';

/** A package a product is bought or sold in (Odoo product.packaging, BC item unit of measure with dimensions, ERPNext packing UOM). */
export const productPackagings = defineResource({
  name: 'product_packaging',
  path: 'product-packagings',
  module: 'inventory',
  description:
    'A box, carton or pallet a product comes in: how many units it holds, its barcode and size.',
  fields: {
    product_id: reference('product', { required: true, filterable: true }),
    name: title('Carton of 12', { maxLength: 100 }),
    packaging_type: enumOf(['box', 'carton', 'pallet', 'bag', 'drum', 'crate', 'other'], {
      required: true,
      filterable: true,
      example: 'carton',
    }),
    quantity: decimal({
      required: true,
      min: 0,
      description: 'Units of the product in one package.',
      example: '12',
    }),
    barcode: text({ maxLength: 64, filterable: true, fake: 'barcode', example: '13057640257685' }),
    weight_kg: decimal({ min: 0, description: 'Gross weight, full.', example: '6.4' }),
    length_cm: decimal({ min: 0, example: '60' }),
    width_cm: decimal({ min: 0, example: '40' }),
    height_cm: decimal({ min: 0, example: '30' }),
    purchasable: boolean({
      required: true,
      description: 'Suppliers deliver in it.',
      example: true,
    }),
    sellable: boolean({ required: true, description: 'Customers may order it.', example: false }),
  },
});
