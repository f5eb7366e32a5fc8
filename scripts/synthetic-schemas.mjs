#!/usr/bin/env node
// A schema-heavy synthetic manifest (scale): N tools whose input schemas are each 5–20 KB
// of nested `$defs` that refer to each other (objects, enums, nullable fields, arrays of objects,
// tagged unions, maps), plus a few shared `schemas:` every tool refers to. Deterministic (seeded).
//
//   node scripts/synthetic-schemas.mjs --tools 500 [--seed 1] [--min-kb 5] [--max-kb 20] > mcpgen.yaml
//   import { schemaHeavyManifest } from './scripts/synthetic-schemas.mjs'   // the YAML text
import { stringify } from 'yaml';

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = [
  'account',
  'address',
  'amount',
  'city',
  'currency',
  'customer',
  'date',
  'item',
  'label',
  'limit',
  'note',
  'order',
  'owner',
  'priority',
  'query',
  'region',
  'status',
  'tag',
  'unit',
  'user',
];

/** One definition: an object whose properties use every common construct; may refer to later defs. */
function definition(r, index, count, description) {
  const word = () => WORDS[Math.floor(r() * WORDS.length)];
  const properties = {};
  const n = 4 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const name = `${word()}_${i}`;
    const next = index + 1 + Math.floor(r() * 3);
    const ref = next < count ? { $ref: `#/$defs/def_${next}` } : { type: 'string', maxLength: 64 };
    switch (Math.floor(r() * 9)) {
      case 0:
        properties[name] = { type: 'string', minLength: 1, maxLength: 200, description: `The ${name} as text` };
        break;
      case 1:
        properties[name] = {
          type: 'integer',
          minimum: 0,
          maximum: 9007199254740991,
          default: 0,
          description: `A count of ${name}`,
        };
        break;
      case 2:
        properties[name] = {
          type: ['number', 'null'],
          exclusiveMinimum: 0,
          default: null,
          description: 'Optional amount',
        };
        break;
      case 3:
        properties[name] = {
          type: 'string',
          enum: ['low', 'medium', 'high', 'urgent'],
          default: 'low',
          description: 'A level',
        };
        break;
      case 4:
        properties[name] = { type: 'array', items: ref, maxItems: 50, description: `A list of ${name}` };
        break;
      case 5:
        properties[name] = { ...ref, description: `Nested ${name}` };
        break;
      case 6:
        properties[name] = { anyOf: [ref, { type: 'null' }], default: null, description: `Nullable ${name}` };
        break;
      case 7:
        properties[name] = {
          type: 'object',
          additionalProperties: { type: 'string', maxLength: 100 },
          description: 'Free-form labels',
        };
        break;
      default:
        properties[name] = {
          oneOf: [
            {
              type: 'object',
              properties: { kind: { const: 'id' }, id: { type: 'string', format: 'uuid' } },
              required: ['kind', 'id'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { kind: { const: 'name' }, name: { type: 'string' } },
              required: ['kind', 'name'],
              additionalProperties: false,
            },
          ],
          description: 'Identified by id or by name',
        };
    }
  }
  const keys = Object.keys(properties);
  return {
    type: 'object',
    description,
    properties,
    required: keys.slice(0, 1 + Math.floor(r() * 2)),
    additionalProperties: false,
  };
}

/** An input schema of at least `targetBytes` of JSON (at most `maxBytes` when one fits). */
function inputSchema(r, targetBytes, maxBytes) {
  const seed = Math.floor(r() * 2 ** 31);
  const build = (count) => {
    const rr = rng(seed);
    const $defs = {};
    for (let i = 0; i < count; i++) $defs[`def_${i}`] = definition(rr, i, count, `Part ${i} of the request`);
    return {
      type: 'object',
      properties: {
        request_id: { type: 'string', format: 'uuid', description: 'Idempotency key' },
        customer: { $ref: '#/schemas/Customer' },
        money: { $ref: '#/schemas/Money', description: 'Amount to use' },
        body: { $ref: '#/$defs/def_0' },
      },
      required: ['request_id', 'body'],
      additionalProperties: false,
      $defs,
    };
  };
  // Grow the chain of definitions (def_i only refers to def_j, j > i) until the schema is big enough.
  let fits = build(1);
  for (let count = 2; count < 400; count++) {
    const next = build(count);
    const size = JSON.stringify(next).length;
    if (size > maxBytes) return fits;
    if (size >= targetBytes) return next;
    fits = next;
  }
  return fits;
}

/** The manifest as YAML text. */
export function schemaHeavyManifest(tools, { seed = 1, minKB = 5, maxKB = 20 } = {}) {
  const r = rng(seed);
  const m = {
    version: 1,
    server: {
      name: `schemas-${tools}`,
      version: '1.0.0',
      description: `Synthetic server with ${tools} schema-heavy tools`,
    },
    transports: { stdio: {}, http: { host: '127.0.0.1', port: 0 } },
    options: { headerVersion: false },
    lint: { rules: { 'max-tools': 'off', 'optional-without-default': 'off', 'missing-description': 'off' } },
    schemas: {
      Money: {
        type: 'object',
        properties: {
          amount: { type: 'integer', minimum: 0 },
          currency: { type: 'string', enum: ['EUR', 'USD', 'JPY'] },
        },
        required: ['amount', 'currency'],
        description: 'An amount in minor units',
      },
      Customer: {
        type: 'object',
        properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } },
        required: ['id'],
        description: 'Who the request is for',
      },
    },
    resources: { readme: { uri: 'synthetic://readme', mimeType: 'text/plain', text: 'synthetic' } },
    prompts: { hello: { description: 'Say hello', messages: [{ role: 'user', text: 'Hello' }] } },
  };
  // Each input schema is written as one line of JSON (valid YAML flow style): block style would be
  // twice the size, and 500 tools of 5-20 KB must stay under the manifest size limit (10 MiB).
  let text = `${stringify(m, { lineWidth: 0 })}tools:\n`;
  for (let i = 0; i < tools; i++) {
    const target = (minKB + r() * (maxKB - minKB)) * 1024;
    text += `  tool_${String(i).padStart(4, '0')}:\n`;
    text += `    description: Synthetic tool ${i} with a large nested input schema\n`;
    text += `    annotations: { readOnlyHint: ${i % 2 === 0} }\n`;
    text += `    input: ${JSON.stringify(inputSchema(r, target, maxKB * 1024))}\n`;
  }
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : dflt;
  };
  process.stdout.write(
    schemaHeavyManifest(arg('tools', 500), { seed: arg('seed', 1), minKB: arg('min-kb', 5), maxKB: arg('max-kb', 20) }),
  );
}
