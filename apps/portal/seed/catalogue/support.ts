import { addWorkingHours, HOLIDAYS_2026, type Week, weekLines } from './calendars';
import type { SeedContext, SeededRecord, SeedOverrides } from './context';
import { at, byId, dayOf, findRecord, inStatus, minutesAfter, recordsOf } from './records';

type Line = Record<string, unknown>;

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const EVERY_DAY = [...WEEKDAYS, 'saturday', 'sunday'] as const;

const CALENDARS: readonly (Week & { code: string; name: string })[] = [
  {
    code: 'HO-9-18',
    name: 'Heures ouvrées 9 h – 18 h',
    days: WEEKDAYS,
    hours: [
      [9, 12.5],
      [13.5, 18],
    ],
  },
  { code: 'EXT-8-20', name: 'Support étendu 8 h – 20 h', days: WEEKDAYS, hours: [[8, 20]] },
  { code: '24-7', name: 'Astreinte 24 h/24, 7 j/7', days: EVERY_DAY, hours: [[0, 24]] },
  {
    code: 'SAM-9-17',
    name: 'Du lundi au samedi 9 h – 17 h',
    days: [...WEEKDAYS, 'saturday'],
    hours: [[9, 17]],
  },
];

/** [code, name, assignment]. */
const TEAMS = [
  ['N1', 'Support niveau 1', 'balanced'],
  ['N2', 'Support niveau 2', 'manual'],
  ['SAV', 'Service après-vente', 'round_robin'],
  ['GC', 'Support grands comptes', 'manual'],
  ['MACH', 'Support technique machines', 'balanced'],
  ['FACT', 'Facturation et comptes clients', 'round_robin'],
] as const;

/** [code, name, description]. */
const CATEGORIES = [
  ['PANNE', 'Panne matériel', 'La machine ne démarre pas, s’arrête ou affiche une erreur.'],
  ['FACTURE', 'Question de facturation', 'Factures, avoirs, échéances et relances.'],
  ['INSTALL', 'Installation et mise en service', 'Livraison, installation, premier démarrage.'],
  ['PIECES', 'Pièces détachées', 'Commande et disponibilité des pièces de rechange.'],
  ['PORTAIL', 'Accès au portail client', 'Comptes, mots de passe, droits d’accès.'],
  ['LIVRAISON', 'Réclamation livraison', 'Colis abîmé, manquant ou en retard.'],
  ['RETOUR', 'Retour et échange', 'Retours produits, échanges, remboursements.'],
  ['FORMATION', 'Formation et utilisation', 'Questions sur l’utilisation des produits.'],
] as const;

/** Policies: [code, name, factor on the standard targets, customer-specific]. */
const POLICIES = [
  ['SLA-STD', 'Standard', 1, false],
  ['SLA-PREM', 'Premium', 0.5, false],
  ['SLA-CRIT', 'Critique 24/7', 0.25, false],
  ['SLA-GC', 'Contrat grands comptes', 0.5, true],
] as const;

/** Standard targets by priority: [priority, first response hours, resolution hours]. */
const TARGETS = [
  ['low', 24, 120],
  ['medium', 8, 40],
  ['high', 4, 16],
  ['urgent', 1, 8],
] as const;

/** [type, code, name, address]. */
const CHANNELS = [
  ['email', 'EMAIL', 'E-mail support', 'support@demo-sarl.example.test'],
  ['web_form', 'WEB', 'Formulaire du site', 'https://www.demo-sarl.example.test/support'],
  ['phone', 'TEL', 'Hotline', '+33 4 72 10 20 30'],
  ['chat', 'CHAT', 'Chat en ligne', 'https://www.demo-sarl.example.test/chat'],
  ['portal', 'PORTAIL', 'Portail client', 'https://clients.demo-sarl.example.test'],
  ['social_media', 'LINKEDIN', 'Messages LinkedIn', 'https://www.linkedin.com/company/demo-sarl'],
] as const;

/** [subject, description, resolution]. */
const TICKETS = [
  [
    'La machine affiche l’erreur E42 au démarrage',
    'Depuis ce matin, la machine affiche E42 et refuse de démarrer. Nous avons coupé et remis le courant sans succès.',
    'Sonde de température remplacée par le technicien, erreur levée.',
  ],
  [
    'Facture en double pour la commande de février',
    'Nous avons reçu deux factures pour la même commande. Pouvez-vous annuler l’une des deux ?',
    'Facture en double annulée par un avoir, le client a été prévenu.',
  ],
  [
    'Demande d’installation sur notre second site',
    'Nous souhaitons faire installer l’équipement livré la semaine dernière sur notre site de Villeurbanne.',
    'Installation planifiée et réalisée par l’équipe terrain.',
  ],
  [
    'Délai pour un jeu de joints de vérin',
    'Quel est le délai de livraison pour un jeu de joints du vérin principal ?',
    'Pièces expédiées depuis le stock de Lyon sous 48 h.',
  ],
  [
    'Impossible de me connecter au portail',
    'Le portail indique que mon mot de passe est incorrect alors que je viens de le réinitialiser.',
    'Compte déverrouillé après trop de tentatives, accès rétabli.',
  ],
  [
    'Colis reçu endommagé',
    'Le carton est arrivé écrasé et le capot de la machine est rayé. Photos en pièce jointe.',
    'Capot de remplacement envoyé, réserve transmise au transporteur.',
  ],
  [
    'Bruit anormal pendant le cycle de production',
    'Un claquement se fait entendre à chaque cycle depuis la dernière maintenance.',
    'Courroie retendue et carter refixé lors de l’intervention.',
  ],
  [
    'Comment exporter l’historique des cycles ?',
    'Nous aimerions récupérer l’historique des cycles du mois dernier dans un tableur.',
    'Procédure d’export envoyée, article de la base de connaissances associé.',
  ],
] as const;

const REPLIES = [
  'Bonjour, merci pour votre message. Pouvez-vous nous envoyer une photo de la plaque signalétique ?',
  'Bonjour, nous avons bien reçu votre demande et un technicien vous rappelle dans la journée.',
  'Bonjour, la pièce est disponible en stock, nous pouvons l’expédier dès aujourd’hui.',
  'Bonjour, nous avons réinitialisé votre accès : vous pouvez vous reconnecter.',
] as const;

const NOTES = [
  'Client sous contrat Premium : à traiter en priorité.',
  'Déjà signalé le mois dernier sur la même machine, voir l’historique.',
  'Pièce à commander chez le fournisseur, délai annoncé 5 jours.',
] as const;

/** [shortcut, name, body]. */
const CANNED = [
  [
    'accuse-reception',
    'Accusé de réception',
    'Bonjour, nous avons bien reçu votre demande et revenons vers vous au plus vite.',
  ],
  [
    'photo-plaque',
    'Demande de photo de la plaque signalétique',
    'Bonjour, pouvez-vous nous envoyer une photo de la plaque signalétique de la machine ?',
  ],
  [
    'reset-mdp',
    'Réinitialiser le mot de passe',
    'Bonjour, vous pouvez réinitialiser votre mot de passe depuis la page de connexion du portail.',
  ],
  [
    'cloture',
    'Clôture du ticket',
    'Bonjour, sans retour de votre part, nous clôturons ce ticket. N’hésitez pas à nous recontacter.',
  ],
  [
    'delai-pieces',
    'Délai des pièces détachées',
    'Bonjour, les pièces en stock sont expédiées sous 48 h ouvrées depuis notre entrepôt de Lyon.',
  ],
  [
    'rdv-technicien',
    'Rendez-vous technicien',
    'Bonjour, un technicien peut intervenir sur site. Quelles sont vos disponibilités cette semaine ?',
  ],
] as const;

const KNOWLEDGE_CATEGORIES = [
  ['DEMARRER', 'Bien démarrer', 'Installation, premier démarrage, réglages de base.'],
  ['ENTRETIEN', 'Entretien et maintenance', 'Nettoyage, pièces d’usure, maintenance préventive.'],
  ['DEPANNAGE', 'Dépannage', 'Codes d’erreur et solutions.'],
  ['COMPTE', 'Compte et facturation', 'Portail client, factures, paiements.'],
] as const;

/** [title, slug, summary]. */
const ARTICLES = [
  ['Remplacer le filtre à air', 'remplacer-le-filtre-a-air', 'Quand et comment changer le filtre.'],
  ['Que signifie l’erreur E42 ?', 'erreur-e42', 'La sonde de température ne répond plus.'],
  ['Premier démarrage pas à pas', 'premier-demarrage', 'De la mise sous tension au premier cycle.'],
  [
    'Télécharger vos factures',
    'telecharger-vos-factures',
    'Retrouver vos factures sur le portail.',
  ],
  [
    'Graisser les guides linéaires',
    'graisser-les-guides',
    'Fréquence, graisse recommandée, étapes.',
  ],
  [
    'Exporter l’historique des cycles',
    'exporter-historique',
    'Export en CSV depuis l’écran de suivi.',
  ],
] as const;

/** [name, trigger, offset minutes, action]. */
const ESCALATIONS = [
  ['Réponse bientôt due : prévenir l’agent', 'first_response_due', 30, 'notify'],
  ['Réponse dépassée : prévenir le responsable', 'first_response_breached', 0, 'notify'],
  ['Résolution dépassée : passer en urgent', 'resolution_breached', 0, 'raise_priority'],
  ['Résolution bientôt due : niveau 2', 'resolution_due', 120, 'move_team'],
  ['Sans réponse client : relancer', 'no_customer_reply', 2880, 'notify'],
  ['Note basse : prévenir le responsable', 'low_rating', 0, 'notify'],
] as const;

const COMMENTS = [
  'Réponse rapide et efficace, merci !',
  'Technicien très compétent, problème réglé en une visite.',
  'Résolu, mais il a fallu relancer deux fois.',
  'Parfait, merci pour le suivi.',
] as const;

/** Holidays of a service calendar, as [first, last] days. */
function closedDays(ctx: SeedContext, calendarId: unknown): [string, string][] {
  return recordsOf(ctx, 'service_holiday')
    .filter((h) => h.service_calendar_id === calendarId)
    .map((h) => [String(h.start_date), String(h.end_date ?? h.start_date)]);
}

/** A policy's targets for a priority, in working hours. */
function targetOf(policy: SeededRecord | undefined, priority: string) {
  const line = ((policy?.targets as Line[] | undefined) ?? []).find((t) => t.priority === priority);
  return line
    ? { response: Number(line.first_response_hours), resolution: Number(line.resolution_hours) }
    : undefined;
}

/**
 * Support records that agree with each other: a ticket's deadlines are its policy's targets for
 * its priority, counted in the policy's calendar from its opening; its messages, ratings,
 * claims and service orders come after it and are its customer's; service items are units
 * delivered to their customer, and contracts cover their customer's units.
 */
export const supportSeed: SeedOverrides = {
  service_calendar(ctx) {
    const calendar = CALENDARS[ctx.n % CALENDARS.length]!;
    const site = ['', ' (Belgique)', ' (Suisse)'][Math.floor(ctx.n / CALENDARS.length) % 3];
    return {
      code: `${calendar.code}${site ? `-${ctx.n}` : ''}`,
      name: `${calendar.name}${site}`,
      time_zone: site === ' (Suisse)' ? 'Europe/Zurich' : site ? 'Europe/Brussels' : 'Europe/Paris',
      working_hours: weekLines(calendar),
    };
  },
  service_holiday(ctx) {
    const [name, start, end, recurring] = HOLIDAYS_2026[ctx.n % HOLIDAYS_2026.length]!;
    return { name, start_date: start, end_date: end, is_recurring: recurring };
  },
  support_team(ctx) {
    const [code, name, assignment] = TEAMS[ctx.n % TEAMS.length]!;
    const suffix = ctx.n >= TEAMS.length ? ` ${1 + Math.floor(ctx.n / TEAMS.length)}` : '';
    return {
      code: `${code}${suffix ? `-${suffix.trim()}` : ''}`,
      name: `${name}${suffix}`,
      email: `${code.toLowerCase()}${suffix.trim()}@support.demo-sarl.example.test`,
      assignment_method: assignment,
      uses_sla: code !== 'FACT',
    };
  },
  support_team_member(ctx) {
    return {
      role: ctx.n % 4 === 0 ? 'supervisor' : 'agent',
      max_open_tickets: [15, 20, 25][ctx.n % 3],
      is_available: ctx.n % 5 !== 4,
    };
  },
  ticket_category(ctx) {
    const [code, name, description] = CATEGORIES[ctx.n % CATEGORIES.length]!;
    const again =
      ctx.n >= CATEGORIES.length ? ` (${1 + Math.floor(ctx.n / CATEGORIES.length)})` : '';
    return { code: `${code}${again ? `-${ctx.n}` : ''}`, name: `${name}${again}`, description };
  },
  sla_policy(ctx) {
    const [code, name, factor, contracted] = POLICIES[ctx.n % POLICIES.length]!;
    const again = ctx.n >= POLICIES.length ? ` ${1 + Math.floor(ctx.n / POLICIES.length)}` : '';
    // The critical policy runs round the clock; the others in office hours.
    const calendars = recordsOf(ctx, 'service_calendar');
    const calendar =
      code === 'SLA-CRIT'
        ? calendars.find((c) => String(c.code).startsWith('24-7'))
        : calendars.find((c) => String(c.code).startsWith('HO-'));
    return {
      code: `${code}${again ? `-${again.trim()}` : ''}`,
      name: `${name}${again}`,
      is_default: ctx.n === 0,
      customer_id: contracted ? ctx.pick('customer').id : undefined,
      ticket_category_id: undefined,
      service_calendar_id: (calendar ?? ctx.pick('service_calendar')).id,
      start_date: '2026-01-01',
      end_date: undefined,
      targets: TARGETS.map(([priority, response, resolution]) => ({
        priority,
        first_response_hours: String(response * factor),
        resolution_hours: String(resolution * factor),
      })),
    };
  },
  support_channel(ctx) {
    const [type, code, name, address] = CHANNELS[ctx.n % CHANNELS.length]!;
    const again = ctx.n >= CHANNELS.length;
    return {
      code: again ? `${code}-${ctx.n}` : code,
      name: again ? `${name} (Belgique)` : name,
      channel_type: type,
      address,
    };
  },
  service_item(ctx) {
    // A unit shipped on a delivery, at its customer's address, under a two-year warranty.
    const delivery = ctx.pick('delivery');
    const customer = byId(ctx, 'customer', delivery.customer_id);
    const line = (delivery.lines as Line[]).find((l) => l.product_id);
    const shipped = String(delivery.scheduled_date ?? ctx.daysAfter('2026-01-05', ctx.n * 5));
    const installed = ctx.daysAfter(shipped, 3 + (ctx.n % 5));
    return {
      product_id: line?.product_id ?? ctx.pick('product').id,
      serial_number: `SN-26-${String(4100 + ctx.n * 37).padStart(6, '0')}`,
      customer_id: delivery.customer_id,
      delivery_id: delivery.id,
      installation_date: installed,
      warranty_start_date: installed,
      warranty_end_date: ctx.daysAfter(ctx.daysAfter(installed, 730), -1),
      location_street: customer?.street,
      location_street2: undefined,
      location_postal_code: customer?.postal_code,
      location_city: customer?.city,
      location_state: customer?.state,
      location_country_code: customer?.country_code,
    };
  },
  service_contract(ctx) {
    const item = ctx.pick('service_item');
    const customer = byId(ctx, 'customer', item.customer_id);
    const items = recordsOf(ctx, 'service_item').filter((i) => i.customer_id === item.customer_id);
    const contact = recordsOf(ctx, 'contact').find((c) => c.customer_id === item.customer_id);
    // The customer's own policy if it has one, else one offered to every customer.
    const policy =
      recordsOf(ctx, 'sla_policy').find((p) => p.customer_id === item.customer_id) ??
      findRecord(ctx, 'sla_policy', (p) => !p.customer_id);
    const type = (['maintenance', 'support', 'extended_warranty', 'managed_service'] as const)[
      ctx.n % 4
    ]!;
    const label = {
      maintenance: 'Contrat de maintenance',
      support: 'Contrat de support',
      extended_warranty: 'Extension de garantie',
      managed_service: 'Service infogéré',
    }[type];
    const start = ctx.daysAfter('2026-01-01', (ctx.n % 6) * 31);
    return {
      customer_id: item.customer_id,
      contact_id: contact?.id,
      name: `${label} – ${String(customer?.name ?? '')}`.slice(0, 200),
      contract_type: type,
      start_date: start,
      end_date: ctx.daysAfter(ctx.daysAfter(start, 365), -1),
      sla_policy_id: policy.id,
      billing_period: (['yearly', 'quarterly', 'monthly'] as const)[ctx.n % 3],
      price_cents: [240_000, 90_000, 45_000, 18_000][ctx.n % 4],
      currency: 'EUR',
      included_hours: type === 'extended_warranty' ? undefined : String([20, 10, 40][ctx.n % 3]),
      notice_days: [30, 60, 90][ctx.n % 3],
      covered_items: items.map((i) => ({
        service_item_id: i.id,
        product_id: i.product_id,
        description: `N° de série ${String(i.serial_number)}`,
      })),
    };
  },
  support_ticket(ctx) {
    // Asked by a customer's contact; deadlines from the policy that applies, in its hours.
    const contact = findRecord(ctx, 'contact', (c) => Boolean(c.customer_id));
    const customerId = contact.customer_id ?? ctx.pick('customer').id;
    const item = recordsOf(ctx, 'service_item').find((i) => i.customer_id === customerId);
    const contract = recordsOf(ctx, 'service_contract').find(
      (c) => c.customer_id === customerId && c.status === 'actif',
    );
    const policies = recordsOf(ctx, 'sla_policy');
    const policy =
      (contract && byId(ctx, 'sla_policy', contract.sla_policy_id)) ??
      policies.find((p) => p.customer_id === customerId) ??
      policies.find((p) => p.is_default) ??
      ctx.pick('sla_policy');
    const category = ctx.pick('ticket_category');
    const [subject, description, resolution] = TICKETS[ctx.n % TICKETS.length]!;
    const priority = (['medium', 'high', 'low', 'urgent', 'medium', 'high'] as const)[ctx.n % 6]!;
    const openedAt = at(ctx.daysAfter('2026-02-02', ctx.n * 3), 9 + (ctx.n % 8));
    const calendar = byId(ctx, 'service_calendar', policy.service_calendar_id);
    const hours = (calendar?.working_hours as Line[] | undefined) ?? [];
    const closed = closedDays(ctx, policy.service_calendar_id);
    const target = targetOf(policy, priority) ?? { response: 8, resolution: 40 };
    const responseDue = addWorkingHours(openedAt, target.response, hours, closed);
    const resolutionDue = addWorkingHours(openedAt, target.resolution, hours, closed);
    const answered = ctx.status !== 'nouveau';
    const resolved = ctx.status === 'resolu' || ctx.status === 'ferme';
    // One ticket in five misses its deadlines: answered and resolved late.
    const late = ctx.n % 5 === 4;
    const respondedAt = addWorkingHours(
      openedAt,
      target.response * (late ? 1.5 : 0.5),
      hours,
      closed,
    );
    const resolvedAt = addWorkingHours(
      openedAt,
      target.resolution * (late ? 1.25 : 0.6),
      hours,
      closed,
    );
    const team = policy.support_team_id ?? category.support_team_id ?? ctx.pick('support_team').id;
    return {
      subject,
      description,
      customer_id: customerId,
      contact_id: contact.id,
      requester_email: contact.email ?? undefined,
      priority,
      ticket_category_id: category.id,
      support_team_id: team,
      product_id: item?.product_id,
      service_item_id: item?.id,
      service_contract_id: contract?.id,
      sla_policy_id: policy.id,
      opened_at: openedAt,
      first_response_due_at: responseDue,
      resolution_due_at: resolutionDue,
      first_responded_at: answered ? respondedAt : undefined,
      resolved_at: resolved ? resolvedAt : undefined,
      sla_status: late && answered ? 'breached' : resolved ? 'fulfilled' : 'on_track',
      resolution: resolved ? resolution : undefined,
    };
  },
  ticket_message(ctx) {
    // The customer's message when the ticket opens, then an agent's reply or internal note.
    const ticket = ctx.pick('support_ticket', Math.floor(ctx.n / 3));
    const kind = (['customer_message', 'reply', 'internal_note'] as const)[ctx.n % 3];
    const openedAt = String(ticket.opened_at);
    if (kind === 'customer_message')
      return {
        support_ticket_id: ticket.id,
        message_type: kind,
        author_user_id: undefined,
        author_contact_id: ticket.contact_id,
        body: String(ticket.description),
        sent_at: openedAt,
        support_channel_id: ticket.support_channel_id,
      };
    const replyAt = String(ticket.first_responded_at ?? minutesAfter(openedAt, 45));
    return {
      support_ticket_id: ticket.id,
      message_type: kind,
      author_contact_id: undefined,
      body: kind === 'reply' ? REPLIES[ctx.n % REPLIES.length] : NOTES[ctx.n % NOTES.length],
      sent_at: kind === 'reply' ? replyAt : minutesAfter(openedAt, 20),
      support_channel_id: kind === 'reply' ? ticket.support_channel_id : undefined,
    };
  },
  canned_response(ctx) {
    const [shortcut, name, body] = CANNED[ctx.n % CANNED.length]!;
    const again = ctx.n >= CANNED.length;
    return {
      shortcut: again ? `${shortcut}-en` : shortcut,
      name: again ? `${name} (anglais)` : name,
      body: again ? `[EN] ${body}` : body,
      language: again ? 'en' : 'fr',
    };
  },
  knowledge_category(ctx) {
    const [code, name, description] = KNOWLEDGE_CATEGORIES[ctx.n % KNOWLEDGE_CATEGORIES.length]!;
    const again = ctx.n >= KNOWLEDGE_CATEGORIES.length;
    return {
      code: again ? `${code}-${ctx.n}` : code,
      name: again ? `${name} (${1 + Math.floor(ctx.n / KNOWLEDGE_CATEGORIES.length)})` : name,
      description,
      sequence: 10 * (1 + ctx.n),
    };
  },
  knowledge_article(ctx) {
    const [title, slug, summary] = ARTICLES[ctx.n % ARTICLES.length]!;
    const again = ctx.n >= ARTICLES.length ? `-${1 + Math.floor(ctx.n / ARTICLES.length)}` : '';
    const published = ctx.status === 'publie' || ctx.status === 'archive';
    return {
      title,
      slug: `${slug}${again}`,
      summary,
      body: `## ${title}\n\n${summary}\n\n1. Coupez l’alimentation de la machine.\n2. Suivez les étapes décrites ci-dessous.\n3. Remettez la machine sous tension et lancez un cycle d’essai.`,
      language: 'fr',
      published_at: published ? at(ctx.daysAfter('2026-01-12', ctx.n * 5), 10) : undefined,
      view_count: published ? 120 + ctx.n * 97 : 0,
      helpful_votes: published ? 8 + ctx.n * 3 : 0,
    };
  },
  warranty_claim(ctx) {
    // A fault on a unit under warranty, claimed from a ticket of its customer.
    const item = ctx.pick('service_item');
    const ticket = recordsOf(ctx, 'support_ticket').find((t) => t.customer_id === item.customer_id);
    const invoice = recordsOf(ctx, 'invoice').find((i) => i.customer_id === item.customer_id);
    const claimDate = ctx.daysAfter(String(item.warranty_start_date), 40 + ctx.n * 9);
    const resolved = ctx.status === 'resolu' || ctx.status === 'ferme';
    const type = (['repair', 'replacement', 'repair', 'refund'] as const)[ctx.n % 4]!;
    return {
      customer_id: item.customer_id,
      contact_id: ticket?.contact_id ?? undefined,
      service_item_id: item.id,
      product_id: item.product_id,
      serial_number: item.serial_number,
      invoice_id: invoice?.id,
      support_ticket_id: ticket?.id,
      claim_date: claimDate,
      warranty_status: 'under_warranty',
      complaint: [
        'Le moteur s’arrête après dix minutes de fonctionnement.',
        'L’écran de commande reste noir à la mise sous tension.',
        'Fuite d’huile au niveau du vérin principal.',
        'Le capteur de porte ne détecte plus la fermeture.',
      ][ctx.n % 4],
      resolution_type: resolved ? type : undefined,
      resolution: resolved
        ? {
            repair: 'Pièce défectueuse remplacée sur site, essais concluants.',
            replacement: 'Unité échangée contre une unité neuve.',
            refund: 'Produit repris et remboursé.',
          }[type]
        : undefined,
      resolution_date: resolved ? ctx.daysAfter(claimDate, 6) : undefined,
      cost_cents: resolved ? [12_500, 48_000, 9_500, 31_000][ctx.n % 4] : undefined,
    };
  },
  service_order(ctx) {
    // An intervention after a ticket, on its unit, at its customer's, within the contract.
    const ticket = findRecord(ctx, 'support_ticket', (t) => Boolean(t.service_item_id));
    const item = byId(ctx, 'service_item', ticket.service_item_id);
    const start = at(ctx.daysAfter(dayOf(String(ticket.opened_at)), 1 + (ctx.n % 3)), 8.5);
    const end = minutesAfter(start, 210);
    const goods = recordsOf(ctx, 'product').filter((p) => p.product_type !== 'service');
    const part = goods[ctx.n % Math.max(1, goods.length)];
    const done = ctx.status === 'termine';
    return {
      customer_id: ticket.customer_id ?? item?.customer_id ?? ctx.pick('customer').id,
      contact_id: ticket.contact_id ?? undefined,
      service_item_id: item?.id,
      support_ticket_id: ticket.id,
      service_contract_id: ticket.service_contract_id ?? undefined,
      fault_description: String(ticket.description),
      scheduled_start: start,
      scheduled_end: end,
      actual_start: ctx.status === 'planifie' ? undefined : minutesAfter(start, 15),
      actual_end: done ? minutesAfter(start, 240) : undefined,
      labour_hours: done ? '3.75' : undefined,
      parts:
        done && part
          ? [{ product_id: part.id, description: String(part.name), quantity: '1' }]
          : [],
      site_street: item?.location_street,
      site_street2: undefined,
      site_postal_code: item?.location_postal_code,
      site_city: item?.location_city,
      site_state: item?.location_state,
      site_country_code: item?.location_country_code,
      resolution: done
        ? String(ticket.resolution ?? 'Intervention réalisée, machine remise en service.')
        : undefined,
    };
  },
  satisfaction_rating(ctx) {
    // Sent when a ticket is solved; most customers answer within a day.
    const ticket = findRecord(ctx, 'support_ticket', inStatus('resolu', 'ferme'));
    const sentAt = minutesAfter(String(ticket.resolved_at ?? ticket.opened_at), 5);
    const answered = ctx.n % 4 !== 3;
    return {
      support_ticket_id: ticket.id,
      customer_id: ticket.customer_id ?? undefined,
      contact_id: ticket.contact_id ?? undefined,
      sent_at: sentAt,
      responded_at: answered ? minutesAfter(sentAt, 90 + ctx.n * 40) : undefined,
      rating: answered ? [5, 4, 3, 5, 2][ctx.n % 5] : undefined,
      comment: answered ? COMMENTS[ctx.n % COMMENTS.length] : undefined,
    };
  },
  escalation_rule(ctx) {
    const [name, trigger, offset, action] = ESCALATIONS[ctx.n % ESCALATIONS.length]!;
    const again = ctx.n >= ESCALATIONS.length;
    const teams = recordsOf(ctx, 'support_team');
    const level2 = teams.find((t) => String(t.code).startsWith('N2'));
    return {
      code: `ESC-${String(ctx.n + 1).padStart(2, '0')}`,
      name: again ? `${name} (grands comptes)` : name,
      trigger,
      offset_minutes: offset,
      action,
      target_team_id: action === 'move_team' ? (level2 ?? ctx.pick('support_team')).id : undefined,
      new_priority: action === 'raise_priority' ? 'urgent' : undefined,
      priority: undefined,
    };
  },
};
