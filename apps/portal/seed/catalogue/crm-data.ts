/** Fixed lists the CRM seed draws from: territories, NACE industries, sources, stages, campaigns. */

/** Sales territories of a French company selling in Europe (ISO 3166-1 / 3166-2 codes). */
export const TERRITORIES = [
  ['FR-IDF', 'Île-de-France', 'FR'],
  ['FR-ARA', 'Auvergne-Rhône-Alpes', 'FR'],
  ['FR-PAC', 'Provence-Alpes-Côte d’Azur', 'FR'],
  ['FR-NAQ', 'Nouvelle-Aquitaine', 'FR'],
  ['FR-HDF', 'Hauts-de-France', 'FR'],
  ['BE', 'Belgium', 'BE'],
  ['DE', 'Germany', 'DE'],
  ['ES', 'Spain', 'ES'],
  ['IT', 'Italy', 'IT'],
  ['NL', 'Netherlands', 'NL'],
  ['CH', 'Switzerland', 'CH'],
  ['GB', 'United Kingdom', 'GB'],
] as const;

/** NACE Rev. 2 divisions of the tenant's customers. */
export const INDUSTRIES = [
  ['C31', 'Manufacture of furniture'],
  ['F41', 'Construction of buildings'],
  ['G46', 'Wholesale trade'],
  ['G47', 'Retail trade'],
  ['H49', 'Land transport'],
  ['I55', 'Accommodation'],
  ['J62', 'Computer programming and consultancy'],
  ['K64', 'Financial services'],
  ['M69', 'Legal and accounting activities'],
  ['M71', 'Architectural and engineering activities'],
  ['P85', 'Education'],
  ['Q86', 'Human health activities'],
] as const;

export const LEAD_SOURCES = [
  ['WEB-FORM', 'Website contact form', 'website'],
  ['WEB-CHAT', 'Website chat', 'website'],
  ['REFERRAL', 'Customer referral', 'referral'],
  ['NEWSLETTER', 'Newsletter', 'campaign'],
  ['LINKEDIN', 'LinkedIn ads', 'campaign'],
  ['COLD-CALL', 'Outbound calls', 'cold_call'],
  ['BUREAUX-EXPO', 'Bureaux Expo trade show', 'trade_show'],
  ['ORGATEC', 'Orgatec Cologne', 'trade_show'],
  ['ARCHITECTS', 'Architects’ network', 'partner'],
  ['RESELLER', 'Reseller referral', 'partner'],
  ['PAGES-JAUNES', 'PagesJaunes directory', 'other'],
  ['TENDERS', 'Public tender portal', 'other'],
] as const;

export const LOST_REASONS = [
  ['PRICE', 'Price too high', 'A competitor or the budget was cheaper.'],
  ['LEAD-TIME', 'Delivery too late', 'We could not deliver by the date needed.'],
  ['COMPETITOR', 'Chose a competitor', 'Went with an incumbent or a better-known brand.'],
  ['NO-BUDGET', 'No budget', 'The project lost its funding.'],
  ['NO-DECISION', 'No decision', 'The customer stopped answering.'],
  ['PRODUCT-FIT', 'Product does not fit', 'A feature or a size we do not offer.'],
  ['POSTPONED', 'Project postponed', 'Pushed to next year.'],
  ['INTERNAL', 'Done in-house', 'The customer’s own staff did it.'],
  ['TERMS', 'Payment terms refused', 'Asked for terms we do not grant.'],
  ['QUALITY', 'Quality concerns', 'Doubts after samples or references.'],
  ['DUPLICATE', 'Duplicate', 'Already followed as another record.'],
  ['OTHER', 'Other', 'See the notes.'],
] as const;

export const COMPETITOR_NOTES = [
  ['Low prices, large catalogue.', 'Long lead times, little after-sales service.'],
  ['Strong brand with architects.', 'Expensive; rigid payment terms.'],
  ['Fast delivery from stock.', 'Narrow range, no custom work.'],
  ['Present in every region.', 'Slow to answer tenders.'],
] as const;

export const STAGES = [
  ['New', 10, false, 'Need identified, contact made.'],
  ['Qualified', 25, false, 'Budget, decision maker and timing known.'],
  ['Needs analysis', 40, false, 'Site visit or workshop done.'],
  ['Proposal sent', 60, false, 'A written quote was sent.'],
  ['Negotiation', 80, false, 'Terms are being agreed.'],
  ['Won', 100, true, 'The customer signed.'],
] as const;

export const MARKETING_LISTS = [
  ['Newsletter – office managers', 'static', true],
  ['Architects and interior designers', 'static', false],
  ['Customers – last order over a year ago', 'dynamic', false],
  ['Trade show visitors 2026', 'static', false],
  ['Webinar attendees', 'static', false],
  ['Public buyers', 'dynamic', false],
  ['Hotel and restaurant owners', 'static', false],
  ['Product news – seating', 'static', true],
  ['Key account decision makers', 'static', false],
  ['Leads not contacted in 90 days', 'dynamic', false],
  ['Resellers', 'static', false],
  ['Newsletter – Benelux', 'static', true],
] as const;

export const CAMPAIGNS = [
  ['Bureaux Expo 2026 – Paris', 'trade_show'],
  ['Spring newsletter – ergonomic seating', 'email'],
  ['Webinar: the hybrid office', 'webinar'],
  ['LinkedIn ads – facility managers', 'social_media'],
  ['Catalogue 2026 mailing', 'direct_mail'],
  ['Orgatec 2026 – Cologne', 'trade_show'],
  ['Google Ads – standing desks', 'advertising'],
  ['Call campaign – dormant customers', 'telemarketing'],
  ['Showroom open days – Lyon', 'event'],
  ['Back to school – education buyers', 'email'],
  ['Hospitality fair – Cannes', 'trade_show'],
  ['Year-end clearance mailing', 'email'],
] as const;

export const DEALS = [
  'Office furniture for the new head office',
  'Refurbishment of the open space, 2nd floor',
  'Meeting rooms equipment',
  'Ergonomic chairs for the call centre',
  'Standing desks roll-out',
  'Reception area redesign',
  'Furniture framework agreement 2026–2028',
  'Classroom furniture, 12 rooms',
  'Hotel rooms refit, 40 rooms',
  'Acoustic booths for the open space',
  'Storage and lockers for the new site',
  'Executive offices',
] as const;

export const OUTCOMES: Record<string, string> = {
  call: 'Reached the buyer; the budget is confirmed for next quarter.',
  meeting: 'Measured the rooms; layout plans to send by Friday.',
  email: 'Plans sent; the architect acknowledged them.',
  task: 'Specification written and shared with the customer.',
  demo: 'Tried three chairs; prefers the mesh back model.',
  follow_up: 'Quote under review; decision expected next week.',
};

export const ACTIVITY_SUBJECTS: Record<string, string> = {
  call: 'Call back about the proposal',
  meeting: 'Site visit with the facility manager',
  email: 'Send the revised layout plans',
  task: 'Prepare the technical specification',
  demo: 'Showroom demo of the seating range',
  follow_up: 'Follow up on the quote',
};

/** Addresses abroad (the generic seed's are French): street, postal code, city by country. */
export const ADDRESSES_ABROAD: Record<string, readonly (readonly [string, string, string])[]> = {
  BE: [
    ['Rue de la Loi 16', '1000', 'Bruxelles'],
    ['Place Saint-Lambert 18', '4000', 'Liège'],
  ],
  DE: [
    ['Hohe Straße 52', '50667', 'Köln'],
    ['Leopoldstraße 23', '80802', 'München'],
  ],
  ES: [
    ['Carrer de Mallorca 401', '08013', 'Barcelona'],
    ['Calle de Alcalá 48', '28014', 'Madrid'],
  ],
  IT: [
    ['Via Dante 7', '20121', 'Milano'],
    ['Via Roma 101', '10123', 'Torino'],
  ],
  NL: [
    ['Coolsingel 40', '3011 AD', 'Rotterdam'],
    ['Oudegracht 158', '3511 AZ', 'Utrecht'],
  ],
  CH: [
    ['Rue du Rhône 48', '1204', 'Genève'],
    ['Avenue de la Gare 10', '1003', 'Lausanne'],
  ],
  GB: [
    ['221 Baker Street', 'NW1 6XE', 'London'],
    ['1 Piccadilly Gardens', 'M1 1RG', 'Manchester'],
  ],
};
