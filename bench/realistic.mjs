// A realistic hand-written-looking manifest for measuring the CLI at a size people ship: shared
// schemas referenced with $ref, enums, nested objects and arrays of objects, outputs on half the
// tools, 4 resources, 3 resource templates and 3 prompts, in the mixed block/flow style of
// examples/weather. Deterministic; not the shape bench/synthetic.mjs produces, so nothing tuned
// on the bench's own manifests is favoured.
// Usage: node bench/realistic.mjs [tools=50] > mcpgen.yaml
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NOUNS = [
  'invoice',
  'customer',
  'order',
  'shipment',
  'ticket',
  'project',
  'report',
  'payment',
  'product',
  'contract',
];
const VERBS = ['get', 'list', 'create', 'update', 'archive'];

const SHARED = `schemas:
  Id:
    type: string
    pattern: "^[a-z0-9-]{4,40}$"
    description: "Identifier of a record, e.g. inv-2031"
  Currency:
    type: string
    enum: [EUR, USD, GBP, JPY, CHF]
    default: EUR
    description: ISO 4217 currency code
  Money:
    type: object
    properties:
      amount: { type: number, minimum: 0, description: Amount in the currency's main unit }
      currency: { $ref: '#/schemas/Currency' }
    required: [amount, currency]
    additionalProperties: false
  Address:
    type: object
    description: A postal address
    properties:
      street: { type: string, maxLength: 200, description: Street and number }
      city: { type: string, minLength: 1, maxLength: 100, description: City name }
      postcode: { type: string, maxLength: 20, description: Postal code }
      country: { type: string, enum: [FR, DE, GB, US, JP, CH], description: Country code }
    required: [city, country]
    additionalProperties: false
  Page:
    type: object
    properties:
      cursor: { type: string, description: Cursor from the previous page }
      limit: { type: integer, minimum: 1, maximum: 100, default: 20, description: Records per page }
    additionalProperties: false
`;

function input(verb, noun, i) {
  const lines = ['    input:', '      type: object', '      properties:'];
  if (verb === 'list') {
    lines.push(`        page: { $ref: '#/schemas/Page' }`);
    lines.push(
      `        status: { type: string, enum: [open, pending, closed, archived], default: open, description: Only ${noun}s in this status }`,
    );
    lines.push(
      `        since: { type: string, format: date, description: Only ${noun}s changed on or after this day }`,
    );
  } else {
    lines.push(`        id: { $ref: '#/schemas/Id' }`);
  }
  if (verb === 'create' || verb === 'update') {
    lines.push(`        ${noun}:`);
    lines.push('          type: object');
    lines.push(`          description: The ${noun}'s fields`);
    lines.push('          properties:');
    lines.push(
      `            title: { type: string, minLength: 1, maxLength: 120, description: Short title of the ${noun} }`,
    );
    lines.push(`            total: { $ref: '#/schemas/Money' }`);
    if (i % 3 === 0) lines.push(`            address: { $ref: '#/schemas/Address' }`);
    lines.push('            lines:');
    lines.push('              type: array');
    lines.push('              maxItems: 50');
    lines.push('              items:');
    lines.push('                type: object');
    lines.push('                properties:');
    lines.push('                  sku: { type: string, maxLength: 40, description: Stock keeping unit }');
    lines.push('                  quantity: { type: integer, minimum: 1, default: 1, description: How many }');
    lines.push(`                  unitPrice: { $ref: '#/schemas/Money' }`);
    lines.push('                required: [sku, quantity]');
    lines.push('                additionalProperties: false');
    lines.push(
      `            tags: { type: array, items: { type: string, maxLength: 30 }, maxItems: 10, default: [], description: Free labels }`,
    );
    lines.push('          required: [title]');
    lines.push('          additionalProperties: false');
    lines.push(
      `        notify: { type: boolean, default: false, description: Whether to e-mail the owner of the ${noun} }`,
    );
  }
  if (verb === 'archive')
    lines.push(
      `        reason: { type: string, enum: [duplicate, obsolete, requested], description: Why the ${noun} is archived }`,
    );
  lines.push(`      required: [${verb === 'list' ? '' : verb === 'create' ? `id, ${noun}` : 'id'}]`);
  lines.push('      additionalProperties: false');
  return lines;
}

function output(verb, noun) {
  const record = [
    '          type: object',
    '          properties:',
    `            id: { $ref: '#/schemas/Id' }`,
    `            title: { type: string, description: Short title of the ${noun} }`,
    `            status: { type: string, enum: [open, pending, closed, archived], description: Where the ${noun} stands }`,
    `            total: { $ref: '#/schemas/Money' }`,
    `            updatedAt: { type: string, format: date-time, description: Last change }`,
    '          required: [id, title, status]',
  ];
  if (verb === 'list') {
    return [
      '    output:',
      '      type: object',
      '      properties:',
      `        ${noun}s:`,
      '          type: array',
      '          items:',
      ...record.map((l) => `    ${l}`),
      '        nextCursor: { type: string, description: "Cursor of the next page; absent on the last" }',
      `      required: [${noun}s]`,
    ];
  }
  return [
    '    output:',
    '      type: object',
    '      properties:',
    `        ${noun}:`,
    ...record,
    `      required: [${noun}]`,
  ];
}

export function realisticManifest(tools = 50) {
  const out = [
    '# yaml-language-server: $schema=../../schemas/manifest.v1.json',
    'version: 1',
    'server:',
    '  name: back-office',
    '  version: 1.2.0',
    '  title: Back office',
    '  description: Invoices, customers, orders and the rest of the back office',
    '  instructions: List records with the list_ tools, then read or change one by its id.',
    '',
    'transports:',
    '  stdio: {}',
    '  http: { host: 127.0.0.1, port: 3000, path: /mcp }',
    '',
    SHARED,
    'tools:',
  ];
  for (let i = 0; i < tools; i++) {
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    const verb = VERBS[i % VERBS.length];
    const round = Math.floor(i / (NOUNS.length * VERBS.length));
    const name = `${verb}_${noun}${round ? `_${round + 1}` : ''}`;
    out.push(`  ${name}:`);
    out.push(`    title: ${verb[0].toUpperCase()}${verb.slice(1)} ${noun}${verb === 'list' ? 's' : ''}`);
    out.push(
      `    description: ${verb === 'list' ? `List ${noun}s, newest first, a page at a time` : `${verb[0].toUpperCase()}${verb.slice(1)} one ${noun} by its id`}`,
    );
    out.push(...input(verb, noun, i));
    if (i % 2 === 0) out.push(...output(verb, noun));
    out.push(
      `    annotations: { readOnlyHint: ${verb === 'get' || verb === 'list'}, openWorldHint: false${verb === 'archive' ? ', destructiveHint: true' : ''} }`,
    );
  }
  out.push(
    '',
    'resources:',
    '  readme:',
    '    uri: office://readme',
    '    title: About this server',
    '    description: What the back office offers, as Markdown',
    '    mimeType: text/markdown',
    '    text: "# Back office\\n\\nInvoices, customers and orders."',
    '  policies:',
    '    uri: office://policies',
    '    description: Refund and archive policies, as plain text',
    '    mimeType: text/plain',
    '    text: Refunds within 30 days. Archived records are kept for 10 years.',
    '  currencies:',
    '    uri: office://currencies',
    '    description: Exchange rates of the day, as JSON',
    '    mimeType: application/json',
    '  stats:',
    '    uri: office://stats',
    '    description: Counts of open records by kind, as JSON',
    '    mimeType: application/json',
    '    annotations: { audience: [assistant], priority: 0.5 }',
    '',
    'resourceTemplates:',
    '  invoice_pdf:',
    '    uriTemplate: office://invoices/{id}.pdf',
    '    description: One invoice as a PDF',
    '    mimeType: application/pdf',
    '    params:',
    `      id: { $ref: '#/schemas/Id' }`,
    '  customer:',
    '    uriTemplate: office://customers/{id}',
    '    description: One customer record, as JSON',
    '    mimeType: application/json',
    '    params:',
    `      id: { $ref: '#/schemas/Id' }`,
    '    list: true',
    '  report:',
    '    uriTemplate: office://reports/{year}/{month}',
    '    description: The monthly report, as JSON',
    '    mimeType: application/json',
    '    params:',
    '      year: { type: string, pattern: "^[0-9]{4}$", description: "Year, e.g. 2025" }',
    '      month: { type: string, enum: ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"], description: Month }',
    '    complete:',
    '      year: ["2023", "2024", "2025"]',
    '',
    'prompts:',
    '  overdue_summary:',
    '    description: Summarise the overdue invoices of a customer',
    '    arguments:',
    '      customer: { description: Customer id, required: true }',
    '    messages:',
    '      - role: user',
    '        text: "List the overdue invoices of {{customer}} and summarise them. Use list_invoices."',
    '  triage:',
    '    description: Triage the open tickets by urgency',
    '    arguments:',
    '      team: { description: Team to triage for, complete: [billing, shipping, support] }',
    '    messages:',
    '      - role: user',
    '        text: "Triage the open tickets of the {{team}} team by urgency."',
    '  monthly_report:',
    '    description: Write the monthly report from the stats resource',
    '    arguments:',
    '      month: { description: "Month of the report, as YYYY-MM", required: true }',
    '    messages:',
    '      - role: user',
    '        text: "Write the report for {{month}} from office://stats."',
    '',
  );
  return out.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(realisticManifest(Number(process.argv[2] ?? 50)));
}
