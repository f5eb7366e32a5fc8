// Synthetic manifests for benchmarks: N tools with realistic input/output schemas (3–8 properties,
// some nested), plus proportional resources (N/10), templates (N/20) and prompts (N/10).
// Deterministic (seeded), so runs compare like with like. The default manifest is noisy on purpose
// (short descriptions, optional properties without `default`: 12,721 lint warnings at 1000 tools);
// `clean: true` gives the lint-clean kind of manifest CI mostly sees: full-sentence descriptions,
// defaults, short lists and leaf schemas written as flow collections (`{ type: string }`, `[a, b]`).
import { Document, isCollection, stringify, visit } from 'yaml';

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = [
  'city',
  'date',
  'limit',
  'query',
  'user',
  'account',
  'region',
  'amount',
  'currency',
  'status',
  'label',
  'owner',
  'priority',
  'tags',
  'note',
  'start',
  'end',
  'unit',
];

function property(r, depth) {
  const kind = Math.floor(r() * (depth > 0 ? 6 : 7));
  switch (kind) {
    case 0:
      return { type: 'string', minLength: 1, maxLength: 200, description: 'A text value' };
    case 1:
      return { type: 'integer', minimum: 0, maximum: 1000, default: 10, description: 'A count' };
    case 2:
      return { type: 'number', minimum: 0, description: 'An amount' };
    case 3:
      return { type: 'boolean', default: false, description: 'A switch' };
    case 4:
      return { type: 'string', enum: ['low', 'medium', 'high'], description: 'A level' };
    case 5:
      return { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20, description: 'A list' };
    default:
      return objectSchema(r, depth + 1, 'A nested object');
  }
}

function objectSchema(r, depth, description) {
  const n = 3 + Math.floor(r() * 6);
  const properties = {};
  for (let i = 0; i < n; i++) properties[`${WORDS[Math.floor(r() * WORDS.length)]}_${i}`] = property(r, depth);
  const keys = Object.keys(properties);
  return {
    type: 'object',
    description,
    properties,
    required: keys.slice(0, 1 + Math.floor(r() * 2)),
    additionalProperties: false,
  };
}

// The lint-clean manifest: the same structure, with descriptions of at least 10 characters and a
// `default` for every optional property (object-valued properties are required instead).
const CLEAN = [
  (d) => ({
    type: 'string',
    minLength: 1,
    maxLength: 200,
    default: 'any',
    description: `Free text for the ${d}, at most 200 characters`,
  }),
  (d) => ({
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 10,
    description: `How many ${d} entries to take into account`,
  }),
  (d) => ({ type: 'number', minimum: 0, default: 0, description: `Amount of ${d}, in the account's currency` }),
  (d) => ({ type: 'boolean', default: false, description: `Whether to include archived ${d} entries` }),
  (d) => ({ type: 'string', enum: ['low', 'medium', 'high'], default: 'medium', description: `Urgency of the ${d}` }),
  (d) => ({
    type: 'array',
    items: { type: 'string', maxLength: 50 },
    maxItems: 20,
    default: [],
    description: `Labels for the ${d}, at most 20`,
  }),
];

function cleanProperty(r, depth, word) {
  const kind = Math.floor(r() * (depth > 0 ? 6 : 7));
  return kind < 6 ? CLEAN[kind](word) : cleanObject(r, depth + 1, `Details of the ${word}, as an object`);
}

function cleanObject(r, depth, description) {
  const n = 3 + Math.floor(r() * 6);
  const properties = {};
  for (let i = 0; i < n; i++) {
    const word = WORDS[Math.floor(r() * WORDS.length)];
    properties[`${word}_${i}`] = cleanProperty(r, depth, word);
  }
  const keys = Object.keys(properties);
  const required = keys.filter((k, i) => i < 1 + Math.floor(r() * 2) || properties[k].type === 'object');
  return { type: 'object', ...(description ? { description } : {}), properties, required, additionalProperties: false };
}

/** Lists of scalars and mappings of scalars (leaf schemas, `enum`, `required`, annotations) in flow style, as people write them. */
function flowLeaves(data) {
  const doc = new Document(data);
  visit(doc, {
    Node(_k, node) {
      if (
        isCollection(node) &&
        node.items.length > 0 &&
        node.items.every((it) => !isCollection(it.value ?? it) && !isCollection(it))
      )
        node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/**
 * The manifest as YAML text. `variant` changes one tool's description (the "one tool changed" case);
 * `clean` gives a lint-clean manifest with flow collections (see the top of this file).
 */
export function syntheticManifest(tools, { seed = 1, variant = 0, clean = false } = {}) {
  if (clean) return cleanManifest(tools, { seed, variant });
  const r = rng(seed);
  const m = {
    version: 1,
    server: { name: `bench-${tools}`, version: '1.0.0', description: `Synthetic server with ${tools} tools` },
    tools: {},
    resources: {},
    resourceTemplates: {},
    prompts: {},
  };
  for (let i = 0; i < tools; i++) {
    m.tools[`tool_${i}`] = {
      description: `Tool number ${i}${i === 0 && variant ? ` (variant ${variant})` : ''}: does something useful with its input`,
      input: objectSchema(r, 0, undefined),
      ...(i % 2 === 0 ? { output: objectSchema(r, 1, undefined) } : {}),
      annotations: { readOnlyHint: i % 3 === 0 },
    };
  }
  for (let i = 0; i < Math.max(1, tools / 10); i++) {
    m.resources[`res_${i}`] =
      i % 2
        ? { uri: `bench://res/${i}`, mimeType: 'text/plain', text: `Resource ${i}` }
        : { uri: `bench://dyn/${i}`, mimeType: 'application/json', description: `Dynamic resource ${i}` };
  }
  for (let i = 0; i < Math.max(1, tools / 20); i++) {
    m.resourceTemplates[`tpl_${i}`] = {
      uriTemplate: `bench://t${i}/{id}`,
      mimeType: 'application/json',
      description: `Template ${i}`,
      params: { id: { type: 'string' } },
      complete: { id: ['a', 'b', 'c'] },
    };
  }
  for (let i = 0; i < Math.max(1, tools / 10); i++) {
    m.prompts[`prompt_${i}`] = {
      description: `Prompt ${i}`,
      arguments: { topic: { description: 'Topic', required: true } },
      messages: [{ role: 'user', text: `Write about {{topic}} (${i})` }],
    };
  }
  return stringify(m, { lineWidth: 0 });
}

function cleanManifest(tools, { seed, variant }) {
  const r = rng(seed);
  const m = {
    version: 1,
    server: { name: `bench-${tools}`, version: '1.0.0', description: `Synthetic server with ${tools} tools` },
    // A server this large has decided on its tool count; everything else is linted.
    lint: { rules: { 'max-tools': 'off' } },
    tools: {},
    resources: {},
    resourceTemplates: {},
    prompts: {},
  };
  for (let i = 0; i < tools; i++) {
    m.tools[`tool_${i}`] = {
      description: `Tool number ${i}${i === 0 && variant ? ` (variant ${variant})` : ''}: does something useful with its input`,
      input: cleanObject(r, 0, undefined),
      ...(i % 2 === 0 ? { output: cleanObject(r, 1, undefined) } : {}),
      annotations: { readOnlyHint: i % 3 === 0, openWorldHint: false },
    };
  }
  for (let i = 0; i < Math.max(1, tools / 10); i++) {
    m.resources[`res_${i}`] =
      i % 2
        ? {
            uri: `bench://res/${i}`,
            mimeType: 'text/plain',
            description: `Static resource number ${i}`,
            text: `Resource ${i}`,
          }
        : { uri: `bench://dyn/${i}`, mimeType: 'application/json', description: `Dynamic resource ${i}` };
  }
  for (let i = 0; i < Math.max(1, tools / 20); i++) {
    m.resourceTemplates[`tpl_${i}`] = {
      uriTemplate: `bench://t${i}/{id}`,
      mimeType: 'application/json',
      description: `Template number ${i}`,
      params: { id: { type: 'string', maxLength: 40 } },
      complete: { id: ['a', 'b', 'c'] },
    };
  }
  for (let i = 0; i < Math.max(1, tools / 10); i++) {
    m.prompts[`prompt_${i}`] = {
      description: `Prompt number ${i}: an essay on a topic`,
      arguments: { topic: { description: 'The topic to write about', required: true } },
      messages: [{ role: 'user', text: `Write about {{topic}} (${i})` }],
    };
  }
  return flowLeaves(m);
}

/** The same N tools as an OpenAPI 3 document (one POST operation per tool), for openapi-mcp-generator. */
export function syntheticOpenApi(tools, { seed = 1 } = {}) {
  const r = rng(seed);
  const paths = {};
  for (let i = 0; i < tools; i++) {
    const input = objectSchema(r, 0, undefined);
    const output = i % 2 === 0 ? objectSchema(r, 1, undefined) : { type: 'object' };
    paths[`/tool_${i}`] = {
      post: {
        operationId: `tool_${i}`,
        summary: `Tool number ${i}: does something useful with its input`,
        requestBody: { required: true, content: { 'application/json': { schema: input } } },
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: output } } } },
      },
    };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: `bench-${tools}`, version: '1.0.0' },
    servers: [{ url: 'http://127.0.0.1:9' }],
    paths,
  });
}
