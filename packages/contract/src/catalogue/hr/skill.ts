import { defineResource } from '../../registry/define';
import { enumOf, text } from '../../registry/fields';
import { lifecycles } from '../../registry/lifecycles';
import { title } from '../field-sets';

/** A skill employees can have (Odoo hr.skill, ERPNext Skill). */
export const skills = defineResource({
  name: 'skill',
  path: 'skills',
  module: 'hr',
  description: 'A skill, language or certification employees can have.',
  fields: {
    name: title('Spanish', { maxLength: 100 }),
    skill_type: enumOf(['technical', 'language', 'soft', 'certification', 'tool'], {
      required: true,
      filterable: true,
      example: 'language',
    }),
    description: text({ maxLength: 2000 }),
  },
  lifecycle: lifecycles.archivable(),
});
