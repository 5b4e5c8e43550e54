import { defineResource } from '../../registry/define';
import { date, email, enumOf, reference, text, USER } from '../../registry/fields';

/** A person employed by the tenant (ERPNext Employee, Odoo hr.employee). */
export const employees = defineResource({
  name: 'employee',
  path: 'employees',
  module: 'hr',
  description: 'A person employed by the tenant.',
  fields: {
    employee_number: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 32,
      description: "The tenant's own identifier for the employee.",
      example: 'E-0042',
    }),
    first_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      example: 'Claire',
    }),
    last_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
      example: 'Martin',
    }),
    email: email({
      filterable: true,
      description: 'Work e-mail.',
      example: 'claire.martin@example.com',
    }),
    phone: text({ maxLength: 50 }),
    job_title: text({ maxLength: 100, filterable: true, example: 'Buyer' }),
    department: text({ maxLength: 100, filterable: true, example: 'Purchasing' }),
    manager_id: reference('employee', {
      filterable: true,
      description: 'Who the employee reports to.',
    }),
    employment_type: enumOf(
      ['full_time', 'part_time', 'fixed_term', 'contractor', 'intern', 'apprentice'],
      {
        filterable: true,
        example: 'full_time',
      },
    ),
    hire_date: date({ required: true, filterable: true, sortable: true, example: '2024-09-02' }),
    leaving_date: date({ filterable: true }),
    employment_status: enumOf(['active', 'left'], {
      required: true,
      filterable: true,
      description: 'Whether the employee still works for the tenant.',
      example: 'active',
    }),
    department_id: reference('department', {
      filterable: true,
      description: 'The department the employee works in.',
    }),
    position_id: reference('position', {
      filterable: true,
      description: 'The job the employee holds.',
    }),
    holiday_list_id: reference('holiday_list', {
      filterable: true,
      description: 'The public holidays and weekly days off that apply to the employee.',
    }),
    default_shift_type_id: reference('shift_type', {
      description: 'The schedule the employee works when no shift assignment says otherwise.',
    }),
    user_id: reference(USER, {
      filterable: true,
      description: 'The platform user account, if the employee has one.',
    }),
  },
});
