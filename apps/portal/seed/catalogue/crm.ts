import { COUNTRIES } from '../fake';
import type { SeedOverrides } from './context';
import {
  ACTIVITY_SUBJECTS,
  ADDRESSES_ABROAD,
  CAMPAIGNS,
  COMPETITOR_NOTES,
  DEALS,
  INDUSTRIES,
  LEAD_SOURCES,
  LOST_REASONS,
  MARKETING_LISTS,
  OUTCOMES,
  STAGES,
  TERRITORIES,
} from './crm-data';
import { all, byId, named, nth, slug } from './helpers';

/** CRM records that agree with each other: deals follow their customers and leads, activities their deals. */
export const crmSeed: SeedOverrides = {
  territory(ctx) {
    const [code, name, country] = named(TERRITORIES, ctx.n);
    return { code, name, country_code: country, parent_id: null };
  },
  industry(ctx) {
    const [code, name] = named(INDUSTRIES, ctx.n);
    return { code, name, parent_id: null };
  },
  lead_source(ctx) {
    const [code, name, channel] = named(LEAD_SOURCES, ctx.n);
    return { code, name, channel };
  },
  lost_reason(ctx) {
    const [code, name, description] = named(LOST_REASONS, ctx.n);
    return { code, name, description };
  },
  competitor(ctx) {
    const [strengths, weaknesses] = named(COMPETITOR_NOTES, ctx.n);
    const name = ctx.faker.company.name();
    return {
      name,
      website: `https://www.${slug(name)}.example`,
      country_code: ['FR', 'FR', 'DE', 'IT'][ctx.n % 4],
      strengths,
      weaknesses,
    };
  },
  pipeline_stage(ctx) {
    // The shared pipeline first, then the same stages for one team's own pipeline.
    const [name, probability, won, requirements] = named(STAGES, ctx.n);
    const teamPipeline = ctx.n >= STAGES.length;
    return {
      name,
      sequence: 10 * ((ctx.n % STAGES.length) + 1),
      probability: String(probability),
      is_won: won,
      sales_team_id: teamPipeline ? ctx.pick('sales_team', 1).id : null,
      requirements,
    };
  },
  marketing_list(ctx) {
    const [name, listType, isPublic] = named(MARKETING_LISTS, ctx.n);
    return { name, list_type: listType, is_public: isPublic };
  },
  marketing_list_member(ctx) {
    const contact = ctx.pick('contact');
    const optedOut = ctx.n % 5 === 4;
    const subscribedAt = `${ctx.daysAfter('2025-09-01', ctx.n * 11)}T08:${String(10 + ctx.n).slice(-2)}:00Z`;
    return {
      marketing_list_id: ctx.pick('marketing_list', ctx.n % 4).id,
      contact_id: contact.id,
      lead_id: null,
      customer_id: contact.customer_id ?? null,
      email: contact.email ?? `${String(contact.first_name).toLowerCase()}@example.test`,
      full_name: `${contact.first_name} ${contact.last_name}`,
      subscribed_at: subscribedAt,
      is_opted_out: optedOut,
      opted_out_at: optedOut ? `${ctx.daysAfter(subscribedAt.slice(0, 10), 60)}T19:02:00Z` : null,
    };
  },
  campaign(ctx) {
    const [name, type] = named(CAMPAIGNS, ctx.n);
    // Planned campaigns lie ahead; running and paused ones started this winter.
    const start =
      ctx.status === 'planifie'
        ? ctx.daysAfter('2026-05-04', (ctx.n % 6) * 21)
        : ctx.daysAfter('2026-01-12', (ctx.n % 6) * 14);
    const budget = 500_000 + (ctx.n % 5) * 750_000;
    return {
      name,
      campaign_type: type,
      start_date: start,
      end_date: ctx.daysAfter(start, type === 'trade_show' ? 4 : 45),
      marketing_list_id: ctx.pick('marketing_list').id,
      currency: 'EUR',
      budget_cents: budget,
      actual_cost_cents: ctx.status === 'planifie' ? 0 : Math.round(budget * 0.6),
      expected_revenue_cents: budget * 8,
    };
  },
  contact(ctx) {
    // A person at one company: a customer's, or (every third) a supplier's; mail at its domain.
    const atSupplier = ctx.n % 3 === 2 && all(ctx, 'supplier').length > 0;
    const company = atSupplier ? ctx.pick('supplier') : ctx.pick('customer');
    const first = ctx.faker.person.firstName();
    const last = ctx.faker.person.lastName();
    return {
      first_name: ctx.n === 0 ? 'Ana' : first,
      last_name: ctx.n === 0 ? 'Duval' : last,
      email: `${slug(ctx.n === 0 ? 'Ana' : first)}.${slug(ctx.n === 0 ? 'Duval' : last)}@${slug(company.name)}.example`,
      customer_id: atSupplier ? null : company.id,
      supplier_id: atSupplier ? company.id : null,
      is_primary: ctx.n % 4 !== 3,
    };
  },
  address(ctx) {
    // Each address belongs to one company: a customer's billing or shipping address, or a supplier's.
    const atSupplier = ctx.n % 3 === 2 && all(ctx, 'supplier').length > 0;
    const company = atSupplier ? ctx.pick('supplier') : ctx.pick('customer');
    const type = atSupplier ? 'office' : ctx.n % 3 === 0 ? 'billing' : 'shipping';
    return {
      address_type: type,
      customer_id: atSupplier ? null : company.id,
      supplier_id: atSupplier ? company.id : null,
      ...(type === 'billing'
        ? {
            street: company.street ?? null,
            postal_code: company.postal_code ?? null,
            city: company.city ?? null,
            country_code: company.country_code ?? null,
          }
        : {}),
      is_default: true,
    };
  },
  lead(ctx) {
    const source = ctx.pick('lead_source');
    const channel = String(source.channel);
    const campaigns = all(ctx, 'campaign').filter(
      (c) => (channel === 'trade_show') === (c.campaign_type === 'trade_show'),
    );
    const lost = ctx.status === 'perdu';
    return {
      title: ctx.n === 0 ? 'Office furniture for the new Lyon site' : DEALS[ctx.n % DEALS.length],
      source: channel,
      lead_source_id: source.id,
      campaign_id:
        channel === 'campaign' || channel === 'trade_show'
          ? (nth(campaigns, ctx.n)?.id ?? null)
          : null,
      lost_reason_id: lost ? ctx.pick('lost_reason').id : null,
      lost_reason: lost ? String(ctx.pick('lost_reason').name) : null,
      probability: { nouveau: 10, qualifie: 30, converti: 100, perdu: 0 }[String(ctx.status)] ?? 10,
      currency: 'EUR',
    };
  },
  customer(ctx) {
    const group = ctx.pick('customer_group');
    const term = ctx.pick('payment_term');
    const country = COUNTRIES[ctx.n % COUNTRIES.length]!;
    const territories = all(ctx, 'territory').filter((t) => t.country_code === country);
    const territory = nth(territories, ctx.n);
    const people = all(ctx, 'salesperson');
    const person =
      nth(
        people.filter((p) => p.territory_id && p.territory_id === territory?.id),
        ctx.n,
      ) ?? nth(people, ctx.n);
    const converted = all(ctx, 'lead').filter((l) => l.status === 'converti');
    const abroad = ADDRESSES_ABROAD[country];
    const [street, postalCode, city] = abroad?.[ctx.n % abroad.length] ?? [];
    return {
      country_code: country,
      ...(abroad ? { street, street2: null, postal_code: postalCode, city, state: null } : {}),
      customer_group: group.name,
      customer_group_id: group.id,
      // Most customers buy at their group's list; a few have their own.
      price_list_id: ctx.n % 4 === 1 ? (group.price_list_id ?? null) : null,
      territory_id: territory?.id ?? null,
      industry_id: ctx.pick('industry').id,
      salesperson_id: person?.id ?? null,
      payment_term_id: term.id,
      payment_terms_days: term.net_days,
      // Its invoices post to the receivable account of Settings → Accounting (411000).
      receivable_account_id: null,
      credit_limit_cents: group.credit_limit_cents ?? null,
      lead_id: converted[ctx.n]?.id ?? null,
      currency: 'EUR',
    };
  },
  opportunity(ctx) {
    const customer = ctx.pick('customer');
    const lead = byId(ctx, 'lead', customer.lead_id);
    const contact = all(ctx, 'contact').find((c) => c.customer_id === customer.id);
    const stages = all(ctx, 'pipeline_stage');
    const won = ctx.status === 'gagne';
    const stage =
      nth(
        stages.filter((s) => Boolean(s.is_won) === won),
        ctx.n,
      ) ?? ctx.pick('pipeline_stage');
    const person = byId(ctx, 'salesperson', customer.salesperson_id);
    const closes = ctx.daysAfter('2026-01-25', ctx.n * 6);
    const closed = won || ctx.status === 'perdu';
    return {
      title: `${DEALS[ctx.n % DEALS.length]} – ${customer.name}`.slice(0, 200),
      customer_id: customer.id,
      lead_id: lead?.id ?? null,
      contact_id: contact?.id ?? null,
      sales_team_id: stage.sales_team_id ?? person?.sales_team_id ?? null,
      pipeline_stage_id: stage.id,
      probability: Math.round(Number(stage.probability)),
      expected_revenue_cents: 800_000 + ((ctx.n * 1_370_000) % 9_000_000),
      currency: 'EUR',
      expected_close_date: closes,
      closed_date: closed ? ctx.daysAfter(closes, -3) : null,
      campaign_id: lead?.campaign_id ?? null,
      lead_source_id: lead?.lead_source_id ?? null,
      lost_reason_id: ctx.status === 'perdu' ? ctx.pick('lost_reason').id : null,
    };
  },
  activity(ctx) {
    const deal = ctx.pick('opportunity');
    const types = ['call', 'meeting', 'email', 'task', 'demo', 'follow_up'] as const;
    const type = types[ctx.n % types.length]!;
    const due = ctx.daysAfter(String(deal.expected_close_date), -(5 + (ctx.n % 10)));
    const done = ctx.status === 'termine';
    return {
      activity_type: type,
      subject: ACTIVITY_SUBJECTS[type],
      due_date: due,
      lead_id: deal.lead_id ?? null,
      opportunity_id: deal.id,
      customer_id: deal.customer_id ?? null,
      contact_id: deal.contact_id ?? null,
      duration_minutes: { call: 15, meeting: 90, email: 10, task: 60, demo: 60, follow_up: 15 }[
        type
      ],
      completed_at: done ? `${due}T15:30:00Z` : null,
      outcome: done ? OUTCOMES[type] : null,
    };
  },
  appointment(ctx) {
    const deal = ctx.pick('opportunity');
    const customer = byId(ctx, 'customer', deal.customer_id);
    const contact = byId(ctx, 'contact', deal.contact_id);
    const types = ['in_person', 'video_call', 'phone_call'] as const;
    const type = types[ctx.n % types.length]!;
    const day = ctx.daysAfter(String(deal.expected_close_date), -(10 + (ctx.n % 7)));
    const hour = 9 + (ctx.n % 7);
    const minutes = type === 'phone_call' ? 30 : 60;
    const starts = new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
    return {
      subject:
        `${{ in_person: 'Site visit', video_call: 'Video call', phone_call: 'Phone call' }[type]} – ${customer?.name ?? deal.title}`.slice(
          0,
          200,
        ),
      appointment_type: type,
      starts_at: starts.toISOString(),
      ends_at: new Date(starts.getTime() + minutes * 60_000).toISOString(),
      location:
        type === 'in_person' && customer
          ? [customer.street, customer.postal_code, customer.city].filter(Boolean).join(', ') ||
            null
          : null,
      video_url:
        type === 'video_call'
          ? `https://meet.example.com/${ctx.faker.string.alpha(10).toLowerCase()}`
          : null,
      customer_id: deal.customer_id ?? null,
      lead_id: deal.lead_id ?? null,
      contact_id: deal.contact_id ?? null,
      opportunity_id: deal.id,
      attendee_name: contact ? `${contact.first_name} ${contact.last_name}` : null,
      attendee_email: contact?.email ?? null,
    };
  },
};
