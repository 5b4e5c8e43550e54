import { defineResource } from '../../registry/define';
import { email, reference, text, USER } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { code, percent, title } from '../field-sets';

/**
 * Someone who sells and earns commissions (ERPNext Sales Person, Business Central
 * salesperson/purchaser, Odoo sales team member).
 */
export const salespeople = defineResource({
  name: 'salesperson',
  path: 'salespeople',
  module: 'sales',
  description:
    'A salesperson: the employee or agent credited with sales, their team, territory and commission rate.',
  fields: {
    code: code('CMA', { maxLength: 16, description: 'Initials or code printed on documents.' }),
    name: title('Claire Martin', { maxLength: 100, fake: 'person_name' }),
    employee_id: reference('employee', {
      filterable: true,
      description: 'Empty for an external agent.',
    }),
    user_id: reference(USER, {
      filterable: true,
      description: 'The platform user, if the salesperson has one.',
    }),
    sales_team_id: reference('sales_team', { filterable: true }),
    territory_id: reference('territory', { filterable: true }),
    commission_rate: percent({
      description: 'Commission on the amount sold before tax, in percent.',
      example: '5',
    }),
    email: email({ filterable: true, example: 'claire.martin@example.com' }),
    phone: text({ maxLength: 50, example: '+33 6 12 34 56 78' }),
  },
  lifecycle: lifecycles.archivable(),
});
