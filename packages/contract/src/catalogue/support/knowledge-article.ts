import { defineResource } from '../../registry/define';
import { boolean, integer, reference, text, timestamp, USER } from '../../registry/fields';
import { title } from '../field-sets';

/** A help-centre article (ERPNext Help Article, Odoo knowledge.article, website_helpdesk knowledge). */
export const knowledgeArticles = defineResource({
  name: 'knowledge_article',
  path: 'knowledge-articles',
  module: 'support',
  description:
    'An article of the knowledge base, written as a draft, then published to customers (or agents only), then archived.',
  fields: {
    title: title('Remplacer le filtre à air', { maxLength: 200 }),
    slug: text({
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 200,
      description: 'The article’s part of its web address.',
      example: 'remplacer-le-filtre-a-air',
    }),
    knowledge_category_id: reference('knowledge_category', { filterable: true }),
    ticket_category_id: reference('ticket_category', {
      filterable: true,
      description: 'Suggested to agents on tickets of this category.',
    }),
    summary: text({ maxLength: 500 }),
    body: text({
      required: true,
      maxLength: 100000,
      description: 'The article, in Markdown.',
      example: '## Avant de commencer\n\nCoupez l’alimentation de la machine.',
    }),
    language: text({
      maxLength: 16,
      filterable: true,
      description: 'BCP 47 language tag.',
      example: 'fr',
    }),
    is_internal: boolean({
      required: true,
      filterable: true,
      description: 'Visible to agents only.',
      example: false,
    }),
    author_id: reference(USER, { filterable: true }),
    published_at: timestamp({ filterable: true, description: 'When it was last published.' }),
    view_count: integer({ min: 0, example: 1280 }),
    helpful_votes: integer({ min: 0, description: 'Readers who found it useful.', example: 97 }),
  },
  lifecycle: {
    initial: 'brouillon',
    editable: ['brouillon', 'publie'],
    actions: {
      publish: { from: ['brouillon'], to: 'publie', description: 'Visible in the help centre.' },
      unpublish: {
        from: ['publie'],
        to: 'brouillon',
        description: 'Taken down to be reworked.',
      },
      archive: {
        from: ['brouillon', 'publie'],
        to: 'archive',
        description: 'Out of date; kept for history, no longer shown.',
      },
      restore: { from: ['archive'], to: 'brouillon', description: 'Back to draft to be updated.' },
    },
  },
});
