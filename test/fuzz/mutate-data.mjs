/**
 * Mutations at the data level: on a yaml Document (comments, styles and anchors kept), each edits
 * nodes and returns a one-line description for the mutation chain, or null when it found nothing
 * to act on. Values too big or too deep to build as nodes (and to stringify without recursion) are
 * left as markers, plain scalars `__FZ<n>__` that mutant.mjs replaces with raw text afterwards.
 */
import YAML from 'yaml';
import { NUMBER_TEXTS, ODD_NAMES, PROTOTYPE_NAMES, TRICKY_STRINGS, TYPE_VALUES, nameVariants } from './names.mjs';

const { isMap, isSeq, isScalar, isAlias, isCollection, Pair, Scalar, YAMLMap } = YAML;

/**
 * @typedef {import('./rng.mjs').Rng} Rng
 * @typedef {{ node: any, path: (string|number)[], parent?: any, pair?: any, index?: number }} Entry
 * @typedef {{ path: string, content?: Buffer | string, size?: number, symlink?: string }} ExtraFile
 * @typedef {{ doc: YAML.Document, rng: Rng, markers: Map<string, (indent: number) => string>, files: ExtraFile[] }} Ctx
 */

/** Every node below the document root, in document order (aliases are not followed). */
export function entries(doc) {
  /** @type {Entry[]} */
  const out = [];
  /** @param {any} node @param {(string|number)[]} path @param {Partial<Entry>} at */
  const walk = (node, path, at) => {
    out.push({ node, path, ...at });
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '?';
        if (pair.value != null) walk(pair.value, [...path, key], { parent: node, pair });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index], { parent: node, index }));
    }
  };
  if (doc.contents) walk(doc.contents, [], {});
  return out;
}

/** Every key/value pair of every mapping. */
function pairs(doc) {
  return entries(doc)
    .filter((e) => isMap(e.node))
    .flatMap((e) => e.node.items.map((/** @type {any} */ pair) => ({ map: e.node, pair, path: e.path })));
}

const show = (/** @type {(string|number)[]} */ p) =>
  p.length
    ? p.map((k) => (String(k).length > 24 ? `${String(k).slice(0, 12)}…(${String(k).length})` : String(k))).join('.')
    : '(root)';
const clip = (/** @type {unknown} */ v) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
};

/** @param {Ctx} ctx @param {Entry} e @param {any} node */
function replace(ctx, e, node) {
  if (e.pair) e.pair.value = node;
  else if (e.parent && e.index !== undefined) e.parent.items[e.index] = node;
  else ctx.doc.contents = node;
}

/** @param {Ctx} ctx @param {(indent: number) => string} raw */
function marker(ctx, raw) {
  const name = `__FZ${ctx.markers.size}__`;
  ctx.markers.set(name, raw);
  return new Scalar(name);
}

/** Entries that look like JSON Schemas (a `type`, `properties`, `$ref`, `items`…). */
function schemaEntries(doc) {
  return entries(doc).filter(
    (e) => isMap(e.node) && ['type', 'properties', '$ref', 'items', 'anyOf', 'enum'].some((k) => e.node.has(k)),
  );
}

/** Entries at a given key anywhere (`uriTemplate`, `file`, `text`…). */
function valuesAt(doc, key) {
  return entries(doc).filter((e) => e.path[e.path.length - 1] === key);
}

/** The pairs of the named sections (tools, resources…) and of every `properties`/`params`/`arguments` map. */
function namedEntries(doc) {
  const sections = new Set([
    'tools',
    'resources',
    'resourceTemplates',
    'prompts',
    'schemas',
    'properties',
    'params',
    'arguments',
    '$defs',
    'definitions',
    'rules',
  ]);
  return pairs(doc).filter((p) => sections.has(String(p.path[p.path.length - 1])));
}

// --- the mutations -------------------------------------------------------------------------------

/** @type {Record<string, (ctx: Ctx) => string | null>} */
export const DATA_MUTATIONS = {
  deleteKey({ doc, rng }) {
    const ps = pairs(doc);
    if (!ps.length) return null;
    const { map, pair, path } = rng.pick(ps);
    map.items.splice(map.items.indexOf(pair), 1);
    return `delete ${show([...path, String(pair.key?.value)])}`;
  },

  renameKey({ doc, rng }) {
    const ps = rng.chance(0.7) ? namedEntries(doc) : pairs(doc);
    if (!ps.length) return null;
    const { pair, path } = rng.pick(ps);
    const old = String(pair.key?.value);
    const name = rng.weighted([
      [3, () => rng.pick(PROTOTYPE_NAMES)],
      [3, () => rng.pick(ODD_NAMES)],
      [2, () => rng.pick(nameVariants(old).length ? nameVariants(old) : ODD_NAMES)],
      [1, () => 'k'.repeat(rng.logInt(100, 100_000))],
    ])();
    pair.key = new Scalar(name);
    return `rename ${show([...path, old])} → ${clip(name)}`;
  },

  /** A sibling whose name differs only by case, `-`/`_`, a prototype name…: collisions. */
  duplicateEntry({ doc, rng }) {
    const ps = namedEntries(doc);
    if (!ps.length) return null;
    const { map, pair, path } = rng.pick(ps);
    const old = String(pair.key?.value);
    const variants = nameVariants(old);
    const name = rng.weighted([
      [4, () => (variants.length ? rng.pick(variants) : `${old}_`)],
      [2, () => rng.pick(PROTOTYPE_NAMES)],
      [1, () => old],
      [1, () => rng.pick(ODD_NAMES)],
    ])();
    const copy = new Pair(new Scalar(name), pair.value?.clone ? pair.value.clone() : pair.value);
    map.items.splice(map.items.indexOf(pair) + 1, 0, copy);
    return `duplicate ${show([...path, old])} as ${clip(name)}`;
  },

  typeConfusion({ doc, rng }) {
    const es = entries(doc).filter((e) => e.path.length > 0);
    if (!es.length) return null;
    const e = rng.pick(es);
    const value = rng.pick(TYPE_VALUES);
    replace({ doc }, e, doc.createNode(value));
    return `type ${show(e.path)} := ${clip(value)}`;
  },

  deepNesting(ctx) {
    const { doc, rng } = ctx;
    const schemas = schemaEntries(doc);
    const useSchema = schemas.length > 0 && rng.chance(0.6);
    const es = useSchema ? schemas : entries(doc).filter((e) => e.path.length > 0);
    if (!es.length) return null;
    const e = rng.pick(es);
    const block = rng.chance(0.25);
    const depth = block ? rng.logInt(10, 400) : rng.logInt(10, 100_000);
    const shape = useSchema
      ? rng.pick(['properties', 'items', 'anyOf', 'allOf', 'additionalProperties'])
      : rng.pick(['list', 'map', 'mixed']);
    replace(
      ctx,
      e,
      marker(ctx, (indent) => (block ? deepBlock(shape, depth, indent) : deepFlow(shape, depth))),
    );
    return `nest ${show(e.path)} ${depth} levels of ${shape} (${block ? 'block' : 'flow'})`;
  },

  hugeValue(ctx) {
    const { doc, rng } = ctx;
    const kind = rng.pick(['string', 'number', 'entries', 'properties', 'enum']);
    if (kind === 'string') {
      const es = entries(doc).filter((e) => isScalar(e.node) && typeof e.node.value === 'string' && e.path.length);
      if (!es.length) return null;
      const e = rng.pick(es);
      const n = rng.logInt(1000, 3_000_000);
      const unit = rng.pick(['x', 'é', '🙂', 'ab ', '*/', '\\']);
      replace(
        ctx,
        e,
        marker(ctx, () => JSON.stringify(unit.repeat(Math.ceil(n / unit.length)))),
      );
      return `huge string ${show(e.path)} ${n} × ${clip(unit)}`;
    }
    if (kind === 'number') {
      const es = entries(doc).filter((e) => isScalar(e.node) && e.path.length);
      if (!es.length) return null;
      const e = rng.pick(es);
      const text = rng.pick(NUMBER_TEXTS);
      replace(
        ctx,
        e,
        marker(ctx, () => text),
      );
      return `number ${show(e.path)} := ${text}`;
    }
    if (kind === 'entries') {
      const ps = namedEntries(doc);
      if (!ps.length) return null;
      const { map, pair, path } = rng.pick(ps);
      const n = rng.logInt(10, 2000);
      const base = String(pair.key?.value);
      for (let i = 0; i < n; i++)
        map.items.push(new Pair(new Scalar(`${base}${i}`), pair.value?.clone ? pair.value.clone() : pair.value));
      return `${n} copies of ${show([...path, base])}`;
    }
    const schemas = schemaEntries(doc);
    if (!schemas.length) return null;
    const e = rng.pick(schemas);
    const n = rng.logInt(10, 20_000);
    if (kind === 'properties') {
      replace(
        ctx,
        e,
        marker(
          ctx,
          () =>
            `{type: object, properties: {${Array.from({ length: n }, (_, i) => `p${i}: {type: string}`).join(', ')}}}`,
        ),
      );
      return `${n} properties at ${show(e.path)}`;
    }
    replace(
      ctx,
      e,
      marker(ctx, () => `{type: string, enum: [${Array.from({ length: n }, (_, i) => `v${i}`).join(', ')}]}`),
    );
    return `enum of ${n} at ${show(e.path)}`;
  },

  /** A `default` (or `const`, `enum`, `examples`) the schema does not allow, or that is hard to emit. */
  invalidDefault(ctx) {
    const { doc, rng } = ctx;
    const schemas = schemaEntries(doc);
    if (!schemas.length) return null;
    const e = rng.pick(schemas);
    const type = e.node.get('type');
    const key = rng.weighted([
      [6, 'default'],
      [1, 'const'],
      [1, 'enum'],
      [1, 'examples'],
    ]);
    const wrong = {
      string: [1, true, null, [], {}],
      integer: [1.5, '1', Number.POSITIVE_INFINITY, true, []],
      number: ['1', null, {}, true],
      boolean: ['true', 0, null],
      object: [[], 'x', { __proto__x: 1 }, 1],
      array: [{}, 'x', [1, 'a', null]],
    }[String(type)] ?? [1, 'x', null, []];
    const pool = [
      ...wrong,
      rng.pick(TRICKY_STRINGS),
      JSON.parse('{"__proto__": {"polluted": true}}'),
      { constructor: 1, toString: 'x' },
      { [rng.pick(PROTOTYPE_NAMES)]: rng.pick(TYPE_VALUES) },
      [rng.pick(TRICKY_STRINGS)],
    ];
    let value = rng.pick(pool);
    let raw = null;
    if (rng.chance(0.2)) raw = rng.pick(NUMBER_TEXTS);
    if (key === 'enum' && !raw) value = [value, rng.pick(pool)];
    if (key === 'examples' && !raw) value = [value];
    const node =
      raw !== null
        ? marker(ctx, () => (key === 'enum' || key === 'examples' ? `[${raw}]` : raw))
        : doc.createNode(value);
    e.node.set(key, node);
    return `${key} at ${show(e.path)} (type ${String(type)}) := ${raw ?? clip(value)}`;
  },

  /** Tricky text where the generator writes it into code: descriptions, titles, names. */
  trickyString({ doc, rng }) {
    const es = entries(doc).filter((e) => isScalar(e.node) && typeof e.node.value === 'string' && e.path.length);
    if (!es.length) return null;
    const e = rng.pick(es);
    const s = rng.pick(TRICKY_STRINGS);
    const text = rng.chance(0.5) ? `${String(e.node.value)} ${s}` : s;
    replace({ doc }, e, new Scalar(text));
    return `tricky ${show(e.path)} := ${clip(text)}`;
  },

  swapSubtrees({ doc, rng }) {
    const es = entries(doc).filter((e) => e.path.length > 0 && (e.pair || e.index !== undefined));
    if (es.length < 2) return null;
    const a = rng.pick(es);
    const b = rng.pick(es);
    if (a === b || isAncestor(a.path, b.path) || isAncestor(b.path, a.path)) return null;
    const an = a.node;
    const bn = b.node;
    replace({ doc }, a, bn);
    replace({ doc }, b, an);
    return `swap ${show(a.path)} ↔ ${show(b.path)}`;
  },

  /** Moves a subtree into another place (a tool's input into a resource, a schema into a prompt…). */
  graftSubtree({ doc, rng }) {
    const es = entries(doc).filter((e) => e.path.length > 0);
    if (es.length < 2) return null;
    const from = rng.pick(es);
    const maps = es.filter((e) => isMap(e.node));
    if (!maps.length) return null;
    const to = rng.pick(maps);
    if (isAncestor(from.path, to.path)) return null;
    const key = String(from.path[from.path.length - 1]);
    to.node.set(key, from.node.clone ? from.node.clone() : from.node);
    return `graft ${show(from.path)} into ${show(to.path)}`;
  },

  refEdit(ctx) {
    const { doc, rng } = ctx;
    const schemas = schemaEntries(doc);
    const refs = valuesAt(doc, '$ref');
    const names = isMap(doc.get('schemas'))
      ? /** @type {any} */ (doc.get('schemas')).items.map((p) => String(p.key?.value))
      : [];
    const kind = rng.pick(['value', 'value', 'cycle', 'selfRecursive']);
    if (kind === 'cycle' || kind === 'selfRecursive' || (!refs.length && !schemas.length)) {
      let shared = doc.get('schemas');
      if (!isMap(shared)) {
        shared = new YAMLMap();
        doc.set('schemas', shared);
      }
      const n = kind === 'selfRecursive' ? 1 : rng.int(1, 4);
      const via =
        kind === 'selfRecursive' || rng.chance(0.3) ? rng.pick(['properties', 'items', 'anyOf', 'direct']) : 'direct';
      for (let i = 0; i < n; i++) {
        const next = `#/schemas/Fz${(i + 1) % n}`;
        const body =
          via === 'properties'
            ? { type: 'object', properties: { next: { $ref: next } } }
            : via === 'items'
              ? { type: 'array', items: { $ref: next } }
              : via === 'anyOf'
                ? { anyOf: [{ $ref: next }, { type: 'null' }] }
                : { $ref: next };
        /** @type {any} */ (shared).set(`Fz${i}`, doc.createNode(body));
      }
      // Something must use the cycle for it to reach the generated code.
      if (schemas.length) rng.pick(schemas).node.set('$ref', '#/schemas/Fz0');
      return `${n}-schema $ref cycle via ${via}`;
    }
    const value = rng.pick([
      '#/schemas/Missing',
      `#/schemas/${names.length ? rng.pick(names) : 'X'}`,
      `#/schemas/${rng.pick(PROTOTYPE_NAMES)}`,
      'https://example.com/schema.json',
      'http://127.0.0.1:1/x.json#/a',
      'file:///etc/passwd',
      './data.json',
      'other.yaml#/x',
      '#',
      '',
      '#/',
      '#/schemas',
      '#/schemas/',
      '#/$defs/x',
      '#/definitions/x',
      '#/tools',
      '#/schemas/A~1B',
      '#/schemas/A~2',
      '#/schemas/%41',
      `#/schemas/${names.length ? rng.pick(names) : 'X'}/properties/x`,
      '#/properties/x',
      '#/properties/__proto__',
      'urn:uuid:1234',
    ]);
    if (refs.length && rng.chance(0.6)) {
      const e = rng.pick(refs);
      replace(ctx, e, new Scalar(value));
      return `$ref ${show(e.path)} := ${clip(value)}`;
    }
    const e = rng.pick(schemas.length ? schemas : refs);
    if (!isMap(e.node)) return null;
    e.node.set('$ref', value);
    return `$ref added at ${show(e.path)} := ${clip(value)}`;
  },

  uriTemplateEdit({ doc, rng }) {
    const es = [...valuesAt(doc, 'uriTemplate'), ...valuesAt(doc, 'uri')].filter((e) => isScalar(e.node));
    if (!es.length) return null;
    const e = rng.pick(es);
    const old = String(e.node.value);
    const piece = rng.pick([
      '{x}',
      '{?a,b}',
      '{+path}',
      '{#frag}',
      '{x*}',
      '{x:3}',
      '{x:0}',
      '{x:99999}',
      '{',
      '}',
      '{}',
      '{{x}}',
      '{x}{x}',
      '{a-b}',
      '{__proto__}',
      '{constructor}',
      '{/a,b}',
      '{;a}',
      '{.a}',
      '{&a}',
      '{=a}',
      '{a b}',
      '{é}',
      '%zz',
      '%41',
      ' ',
      '#frag',
      '?q=1',
    ]);
    const text = rng.weighted([
      [4, `${old}${piece}`],
      [2, old.replace(/\{[^}]*\}/, piece)],
      [1, piece],
      [1, old.replace(/^[a-z][a-z0-9+.-]*:/i, '')],
      [1, `${old}/${'seg/'.repeat(rng.logInt(10, 5000))}`],
    ]);
    replace({ doc }, e, new Scalar(text));
    return `${String(e.path[e.path.length - 1])} ${show(e.path)} := ${clip(text)}`;
  },

  promptPlaceholder({ doc, rng }) {
    const es = valuesAt(doc, 'text').filter((e) => e.path[0] === 'prompts' && isScalar(e.node));
    const args = entries(doc).filter(
      (e) => e.path[0] === 'prompts' && e.path[e.path.length - 1] === 'arguments' && isMap(e.node),
    );
    if (args.length && rng.chance(0.3)) {
      const a = rng.pick(args);
      const name = rng.pick([...PROTOTYPE_NAMES, 'a-b', 'a.b', '1st', 'é', '']);
      a.node.set(name, doc.createNode({ description: 'fuzz', required: rng.chance(0.5) }));
      return `prompt argument ${clip(name)} added at ${show(a.path)}`;
    }
    if (!es.length) return null;
    const e = rng.pick(es);
    const piece = rng.pick([
      '{{missing}}',
      '{{ topic }}',
      '{{{topic}}}',
      '{{#if x}}y{{/if}}',
      '{{__proto__}}',
      '{{constructor}}',
      '{{toString}}',
      '{{',
      '}}',
      '{{a.b}}',
      '{{topic}}{{topic}}',
      '\\{{topic}}',
      '${topic}',
      '{{> partial}}',
      '{{!comment}}',
      '{{}}',
      '{{ }}',
      '{{1}}',
      '{{é}}',
      '{{hasOwnProperty}}',
      '{{a-b}}',
    ]);
    const text = `${String(e.node.value)} ${piece}`;
    replace({ doc }, e, new Scalar(text));
    return `prompt text ${show(e.path)} += ${clip(piece)}`;
  },

  fileRefEdit(ctx) {
    const { doc, rng } = ctx;
    let es = valuesAt(doc, 'file').filter((e) => isScalar(e.node));
    if (!es.length) {
      const res = doc.get('resources');
      if (!isMap(res) || !res.items.length) return null;
      const r = rng.pick(res.items);
      if (!isMap(r.value)) return null;
      r.value.delete('text');
      r.value.set('file', 'x');
      es = valuesAt(doc, 'file').filter((e) => isScalar(e.node));
      if (!es.length) return null;
    }
    const e = rng.pick(es);
    const kind = rng.pick([
      'missing',
      'outside',
      'absolute',
      'self',
      'dir',
      'huge',
      'badUtf8',
      'empty',
      'symlinkOut',
      'dot',
      'emptyName',
      'nul',
    ]);
    /** @type {string} */
    let value;
    switch (kind) {
      case 'missing':
        value = 'missing.txt';
        break;
      case 'outside':
        value = '../../outside.txt';
        break;
      case 'absolute':
        value = '/etc/hostname';
        break;
      case 'self':
        value = 'mcpgen.yaml';
        break;
      case 'dir':
        value = 'fz-dir';
        ctx.files.push({ path: 'fz-dir/a.txt', content: 'a' });
        break;
      case 'huge': {
        const size = rng.logInt(1024, 24 * 1024 * 1024);
        value = 'fz-huge.bin';
        ctx.files.push({ path: value, size });
        break;
      }
      case 'badUtf8':
        value = 'fz-bad.txt';
        ctx.files.push({ path: value, content: Buffer.from([0x61, 0xff, 0xfe, 0xc3, 0x28, 0x00]) });
        break;
      case 'empty':
        value = 'fz-empty.txt';
        ctx.files.push({ path: value, content: '' });
        break;
      case 'symlinkOut':
        value = 'fz-link.txt';
        ctx.files.push({ path: value, symlink: '/etc/hostname' });
        break;
      case 'dot':
        value = '.';
        break;
      case 'emptyName':
        value = '';
        break;
      default:
        value = 'a\u0000b';
        break;
    }
    replace(ctx, e, new Scalar(value));
    return `file ${show(e.path)} := ${kind}${kind === 'huge' ? ` (${ctx.files[ctx.files.length - 1]?.size} bytes)` : ''}`;
  },

  /** Anchors and aliases, merge keys (`<<`), including an alias in place of a whole section. */
  alias({ doc, rng }) {
    const es = entries(doc).filter((e) => e.path.length > 0);
    if (es.length < 2) return null;
    const at = rng.int(0, es.length - 1);
    const src = /** @type {Entry} */ (es[at]);
    // entries() is in document order: an alias must come after its anchor.
    const after = es.slice(at + 1).filter((e) => !isAncestor(src.path, e.path));
    if (!after.length || isAlias(src.node)) return null;
    const dst = rng.pick(after);
    if (isMap(dst.node) && isMap(src.node) && rng.chance(0.5)) {
      dst.node.items.unshift(new Pair(new Scalar('<<'), doc.createAlias(src.node)));
      return `merge <<: *${show(src.path)} into ${show(dst.path)}`;
    }
    replace({ doc }, dst, doc.createAlias(src.node));
    return `alias ${show(dst.path)} := *${show(src.path)}`;
  },

  tag({ doc, rng }) {
    const es = entries(doc);
    if (!es.length) return null;
    const e = rng.pick(es);
    if (isAlias(e.node)) return null;
    const tag = rng.pick([
      'tag:yaml.org,2002:str',
      'tag:yaml.org,2002:int',
      'tag:yaml.org,2002:float',
      'tag:yaml.org,2002:bool',
      'tag:yaml.org,2002:null',
      'tag:yaml.org,2002:map',
      'tag:yaml.org,2002:seq',
      'tag:yaml.org,2002:binary',
      'tag:yaml.org,2002:timestamp',
      'tag:yaml.org,2002:set',
      'tag:yaml.org,2002:omap',
      '!custom',
      '!',
      'tag:example.com,2026:x',
    ]);
    e.node.tag = tag;
    return `tag ${show(e.path)} ${tag}`;
  },

  scalarStyle({ doc, rng }) {
    const es = entries(doc).filter((e) => isScalar(e.node) && typeof e.node.value === 'string');
    if (!es.length) return null;
    const e = rng.pick(es);
    const type = rng.pick(['BLOCK_LITERAL', 'BLOCK_FOLDED', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'PLAIN']);
    e.node.type = type;
    if (type.startsWith('BLOCK') && rng.chance(0.5))
      e.node.value = `${String(e.node.value)}\n\nsecond  paragraph\n  indented\n`;
    return `style ${show(e.path)} ${type}`;
  },

  collectionStyle({ doc, rng }) {
    const es = entries(doc).filter((e) => isCollection(e.node));
    if (!es.length) return null;
    const e = rng.pick(es);
    e.node.flow = !e.node.flow;
    return `${e.node.flow ? 'flow' : 'block'} ${show(e.path)}`;
  },

  comment({ doc, rng }) {
    const es = entries(doc);
    if (!es.length) return null;
    const e = rng.pick(es);
    const text = rng.pick([' c', ' # nested', ' */ ${x}', ' ---', ' key: value', '', ' '.repeat(200)]);
    if (rng.chance(0.5)) e.node.commentBefore = text;
    else e.node.comment = text;
    if (rng.chance(0.3)) e.node.spaceBefore = true;
    return `comment at ${show(e.path)}`;
  },

  unknownKey({ doc, rng }) {
    const es = entries(doc).filter((e) => isMap(e.node));
    if (!es.length) return null;
    const e = rng.pick(es);
    const key = rng.pick([
      'x-extra',
      'additionalProperties',
      'extra',
      'Type',
      'descripton',
      'type ',
      'version',
      ...PROTOTYPE_NAMES,
    ]);
    e.node.set(key, doc.createNode(rng.pick(TYPE_VALUES)));
    return `key ${clip(key)} added at ${show(e.path)}`;
  },
};

// --- deep values ---------------------------------------------------------------------------------

/** @param {string} shape @param {number} depth */
function deepFlow(shape, depth) {
  switch (shape) {
    case 'list':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'map':
      return `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`;
    case 'mixed':
      return `${'{a: ['.repeat(depth)}1${']}'.repeat(depth)}`;
    case 'properties':
      return `${'{type: object, properties: {p: '.repeat(depth)}{type: string}${'}}'.repeat(depth)}`;
    case 'items':
      return `${'{type: array, items: '.repeat(depth)}{type: string}${'}'.repeat(depth)}`;
    case 'anyOf':
      return `${'{anyOf: ['.repeat(depth)}{type: string}${']}'.repeat(depth)}`;
    case 'allOf':
      return `${'{allOf: ['.repeat(depth)}{type: string}${']}'.repeat(depth)}`;
    default:
      return `${'{type: object, additionalProperties: '.repeat(depth)}{type: string}${'}'.repeat(depth)}`;
  }
}

/** Block style: one more indentation per level, starting on the line after the key. */
function deepBlock(shape, depth, indent) {
  const lines = [];
  let pad = indent + 2;
  const sp = () => ' '.repeat(pad);
  for (let i = 0; i < depth; i++) {
    switch (shape) {
      case 'list':
        lines.push(`${sp()}-`);
        break;
      case 'map':
      case 'mixed':
        lines.push(`${sp()}a:`);
        break;
      case 'properties':
        lines.push(`${sp()}type: object`, `${sp()}properties:`, `${sp()}  p:`);
        pad += 2;
        break;
      case 'items':
        lines.push(`${sp()}type: array`, `${sp()}items:`);
        break;
      case 'anyOf':
      case 'allOf':
        lines.push(`${sp()}${shape}:`, `${sp()}  -`);
        pad += 2;
        break;
      default:
        lines.push(`${sp()}type: object`, `${sp()}additionalProperties:`);
        break;
    }
    pad += 2;
  }
  lines.push(shape === 'list' || shape === 'map' || shape === 'mixed' ? `${sp()}x: 1` : `${sp()}type: string`);
  return `\n${lines.join('\n')}`;
}

/** @param {(string|number)[]} a @param {(string|number)[]} b */
function isAncestor(a, b) {
  return a.length <= b.length && a.every((k, i) => k === b[i]);
}
