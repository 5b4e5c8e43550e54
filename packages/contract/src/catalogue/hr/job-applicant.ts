import { defineResource } from '../../registry/define';
import { date, email, enumOf, integer, money, reference, text } from '../../registry/fields';
import { currency } from '../field-sets';

/** A candidate for a job opening, through the pipeline (ERPNext Job Applicant, Odoo hr.applicant). */
export const jobApplicants = defineResource({
  name: 'job_applicant',
  path: 'job-applicants',
  module: 'hr',
  description:
    'A candidate for a job opening: qualified, interviewed, then hired (becoming an employee), rejected or withdrawn.',
  numbering: { prefix: 'APL' },
  fields: {
    job_opening_id: reference('job_opening', { required: true, filterable: true }),
    applicant_name: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      fake: 'person_name',
      example: 'Camille Durand',
    }),
    email: email({ filterable: true, example: 'camille.durand@example.com' }),
    phone: text({ maxLength: 50 }),
    application_date: date({
      required: true,
      filterable: true,
      sortable: true,
      example: '2026-02-10',
    }),
    source: enumOf(['website', 'referral', 'job_board', 'linkedin', 'agency', 'other'], {
      filterable: true,
      example: 'job_board',
    }),
    referred_by_id: reference('employee', { description: 'The employee who referred them.' }),
    expected_salary_cents: money({ min: 0, description: 'Yearly gross salary asked for.' }),
    currency: currency(false),
    availability_date: date({ description: 'First day they could start.' }),
    rating: integer({ min: 0, max: 5, description: 'The recruiters’ rating, 0 to 5.', example: 4 }),
    resume_url: text({ maxLength: 1000, description: 'Where the CV is stored.' }),
    cover_letter: text({ maxLength: 10_000, fake: 'paragraph' }),
    employee_id: reference('employee', {
      filterable: true,
      description: 'The employee record made when they were hired.',
    }),
  },
  lifecycle: {
    initial: 'nouveau',
    editable: ['nouveau', 'qualifie', 'en_cours'],
    actions: {
      qualify: { from: ['nouveau'], to: 'qualifie', description: 'Worth interviewing.' },
      interview: { from: ['qualifie'], to: 'en_cours', description: 'Interviews under way.' },
      hire: { from: ['en_cours'], to: 'converti', description: 'Hired: now an employee.' },
      reject: {
        from: ['nouveau', 'qualifie', 'en_cours'],
        to: 'rejete',
        description: 'Not retained by the recruiters.',
      },
      withdraw: {
        from: ['nouveau', 'qualifie', 'en_cours'],
        to: 'refuse',
        description: 'The candidate withdrew or declined the offer.',
      },
      reopen: { from: ['rejete', 'refuse'], to: 'nouveau', description: 'Considered again.' },
    },
  },
});
