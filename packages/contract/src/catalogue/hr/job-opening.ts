import { defineResource } from '../../registry/define';
import {
  boolean,
  date,
  enumOf,
  integer,
  money,
  reference,
  text,
  USER,
} from '../../registry/fields';
import { currency, title } from '../field-sets';

/** A vacancy being recruited for (ERPNext Job Opening, Odoo hr.job in recruitment). */
export const jobOpenings = defineResource({
  name: 'job_opening',
  path: 'job-openings',
  module: 'hr',
  description:
    'A vacancy: the job, how many people, where, for what salary; published, then closed once filled.',
  numbering: { prefix: 'JOB' },
  fields: {
    name: title('Senior accountant', { fake: 'job_title' }),
    position_id: reference('position', { filterable: true }),
    department_id: reference('department', { filterable: true }),
    employment_type: enumOf(
      ['full_time', 'part_time', 'fixed_term', 'contractor', 'intern', 'apprentice'],
      { required: true, filterable: true, example: 'full_time' },
    ),
    vacancies: integer({
      required: true,
      min: 1,
      max: 1000,
      description: 'People to hire.',
      example: 1,
    }),
    location_city: text({ maxLength: 100, filterable: true, example: 'Lyon' }),
    is_remote: boolean({ description: 'The job can be done remotely.', example: false }),
    salary_min_cents: money({ min: 0, description: 'Lowest yearly gross salary offered.' }),
    salary_max_cents: money({ min: 0, description: 'Highest yearly gross salary offered.' }),
    currency: currency(false),
    opening_date: date({ required: true, filterable: true, sortable: true, example: '2026-02-02' }),
    closing_date: date({
      filterable: true,
      description: 'Applications are accepted until this day.',
      example: '2026-03-31',
    }),
    hiring_manager_id: reference(USER, { filterable: true }),
    description: text({ maxLength: 10_000, description: 'The job ad.' }),
  },
  lifecycle: {
    initial: 'brouillon',
    editable: ['brouillon', 'publie'],
    actions: {
      publish: { from: ['brouillon'], to: 'publie', description: 'Open to applications.' },
      close: { from: ['publie'], to: 'ferme', description: 'Filled or withdrawn.' },
      reopen: { from: ['ferme'], to: 'publie', description: 'Open to applications again.' },
      cancel: { from: ['brouillon'], to: 'annule', description: 'Never published.' },
    },
  },
});
