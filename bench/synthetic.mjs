// Synthetic manifests for benchmarks: N tools with realistic input/output schemas (3–8 properties,
// some nested), plus proportional resources (N/10), templates (N/20) and prompts (N/10).
// Deterministic (seeded), so runs compare like with like.
import { stringify } from 'yaml';

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const WORDS = ['city', 'date', 'limit', 'query', 'user', 'account', 'region', 'amount', 'currency', 'status', 'label', 'owner', 'priority', 'tags', 'note', 'start', 'end', 'unit'];

function property(r, depth) {
  const kind = Math.floor(r() * (depth > 0 ? 6 : 7));
  switch (kind) {
    case 0: return { type: 'string', minLength: 1, maxLength: 200, description: 'A text value' };
    case 1: return { type: 'integer', minimum: 0, maximum: 1000, default: 10, description: 'A count' };
    case 2: return { type: 'number', minimum: 0, description: 'An amount' };
    case 3: return { type: 'boolean', default: false, description: 'A switch' };
    case 4: return { type: 'string', enum: ['low', 'medium', 'high'], description: 'A level' };
    case 5: return { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20, description: 'A list' };
    default: return objectSchema(r, depth + 1, 'A nested object');
  }
}

function objectSchema(r, depth, description) {
  const n = 3 + Math.floor(r() * 6);
  const properties = {};
  for (let i = 0; i < n; i++) properties[`${WORDS[Math.floor(r() * WORDS.length)]}_${i}`] = property(r, depth);
  const keys = Object.keys(properties);
  return { type: 'object', description, properties, required: keys.slice(0, 1 + Math.floor(r() * 2)), additionalProperties: false };
}

/** The manifest as YAML text. `variant` changes one tool's description (the "one tool changed" case). */
export function syntheticManifest(tools, { seed = 1, variant = 0 } = {}) {
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
    m.resources[`res_${i}`] = i % 2 ? { uri: `bench://res/${i}`, mimeType: 'text/plain', text: `Resource ${i}` } : { uri: `bench://dyn/${i}`, mimeType: 'application/json', description: `Dynamic resource ${i}` };
  }
  for (let i = 0; i < Math.max(1, tools / 20); i++) {
    m.resourceTemplates[`tpl_${i}`] = { uriTemplate: `bench://t${i}/{id}`, mimeType: 'application/json', description: `Template ${i}`, params: { id: { type: 'string' } }, complete: { id: ['a', 'b', 'c'] } };
  }
  for (let i = 0; i < Math.max(1, tools / 10); i++) {
    m.prompts[`prompt_${i}`] = { description: `Prompt ${i}`, arguments: { topic: { description: 'Topic', required: true } }, messages: [{ role: 'user', text: `Write about {{topic}} (${i})` }] };
  }
  return stringify(m, { lineWidth: 0 });
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
  return JSON.stringify({ openapi: '3.0.3', info: { title: `bench-${tools}`, version: '1.0.0' }, servers: [{ url: 'http://127.0.0.1:9' }], paths });
}
