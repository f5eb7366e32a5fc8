/**
 * Seeds and mutants. The seeds are the repository's own manifests (examples/*, test/cases/*, valid
 * and invalid); a mutant is a pure function of its number: the same number gives the same seed,
 * the same mutation chain and the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { makeRng } from './rng.mjs';
import { DATA_MUTATIONS } from './mutate-data.mjs';
import { BYTE_MUTATIONS, TEXT_MUTATIONS } from './mutate-text.mjs';

/**
 * @typedef {{ name: string, dir: string, valid: boolean, text: string }} Seed
 * @typedef {import('./mutate-data.mjs').ExtraFile} ExtraFile
 * @typedef {{ id: string, number: number, seed: Seed, bytes: Buffer, chain: string[], files: ExtraFile[] }} Mutant
 */

/** What of a seed's folder is not part of its input: generated output, golden expectations. */
const NOT_INPUT = new Set([
  'expected',
  'node_modules',
  'dist',
  'src',
  'test',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  '.gitignore',
  'stderr.txt',
  'stdout.txt',
  'exit.txt',
  'args.json',
]);

/** True for the files of a seed's folder a mutant gets (the manifest is written separately). */
export function isSeedInput(seedDir, file) {
  const rel = path.relative(seedDir, file);
  if (rel === '') return true;
  const top = rel.split(path.sep)[0] ?? '';
  return !NOT_INPUT.has(top) && rel !== 'mcpgen.yaml';
}

/** @param {string} repo @returns {Seed[]} */
export function loadSeeds(repo) {
  /** @type {Seed[]} */
  const seeds = [];
  for (const group of ['examples', 'test/cases']) {
    const base = path.join(repo, group);
    for (const name of fs.readdirSync(base).sort()) {
      const dir = path.join(base, name);
      const file = path.join(dir, 'mcpgen.yaml');
      if (!fs.existsSync(file) || !fs.statSync(file).isFile()) continue;
      seeds.push({
        name: `${group}/${name}`,
        dir,
        valid: !name.startsWith('invalid-'),
        text: fs.readFileSync(file, 'latin1'),
      });
    }
  }
  // Kept as bytes (latin1 round-trips them): some invalid seeds are not UTF-8 on purpose.
  for (const s of seeds) if (isUtf8(s.text)) s.text = Buffer.from(s.text, 'latin1').toString('utf8');
  return seeds;
}

function isUtf8(latin1) {
  const b = Buffer.from(latin1, 'latin1');
  return Buffer.from(b.toString('utf8'), 'utf8').equals(b);
}

const DATA_WEIGHTS = /** @type {[number, string][]} */ ([
  [3, 'deleteKey'],
  [4, 'renameKey'],
  [4, 'duplicateEntry'],
  [4, 'typeConfusion'],
  [2, 'deepNesting'],
  [2, 'hugeValue'],
  [4, 'invalidDefault'],
  [3, 'trickyString'],
  [2, 'swapSubtrees'],
  [2, 'graftSubtree'],
  [3, 'refEdit'],
  [2, 'uriTemplateEdit'],
  [2, 'promptPlaceholder'],
  [2, 'fileRefEdit'],
  [2, 'alias'],
  [1, 'tag'],
  [2, 'scalarStyle'],
  [2, 'collectionStyle'],
  [1, 'comment'],
  [2, 'unknownKey'],
]);
const TEXT_WEIGHTS = /** @type {[number, string][]} */ ([
  [3, 'deleteLine'],
  [2, 'duplicateLine'],
  [2, 'swapLines'],
  [3, 'indent'],
  [1, 'truncate'],
  [3, 'insertChars'],
  [1, 'bom'],
  [2, 'crlf'],
  [1, 'trailingSpace'],
  [1, 'noFinalNewline'],
  [2, 'comment'],
  [2, 'documentMarkers'],
  [2, 'blockScalar'],
  [2, 'flowOverLines'],
  [2, 'anchorAlias'],
  [2, 'tag'],
  [2, 'oddKeySyntax'],
  [1, 'longLine'],
  [1, 'blankLines'],
]);

/** @param {number} number @param {Seed[]} seeds @returns {Mutant} */
export function makeMutant(number, seeds) {
  const rng = makeRng(number);
  const valid = seeds.filter((s) => s.valid);
  const seed = rng.chance(0.7) && valid.length ? rng.pick(valid) : rng.pick(seeds);
  const chain = [];
  /** @type {ExtraFile[]} */
  const files = [];
  let text = seed.text;

  const doc = YAML.parseDocument(text, { uniqueKeys: false });
  // A seed the yaml package cannot write back (an alias to no anchor) is only mutated as text.
  const dataSteps =
    doc.errors.length || !YAML.isMap(doc.contents) || !printable(doc)
      ? 0
      : rng.weighted([
          [2, 0],
          [6, 1],
          [3, 2],
          [1, 3],
        ]);
  if (dataSteps) {
    /** @type {Map<string, (indent: number) => string>} */
    const markers = new Map();
    let current = doc;
    /** Each step's document: a later step can make the whole unprintable (an alias moved before its anchor). */
    const history = [doc];
    for (let step = 0; step < dataSteps; step++) {
      for (let attempt = 0; attempt < 10; attempt++) {
        const name = rng.weighted(DATA_WEIGHTS);
        const next = current.clone();
        const before = markers.size;
        const beforeFiles = files.length;
        /** @type {string | null} */
        let said = null;
        try {
          said = /** @type {any} */ (DATA_MUTATIONS)[name]({ doc: next, rng, markers, files });
        } catch {
          /* a node shape the mutation did not expect: another one is drawn */
        }
        let ok = said !== null;
        if (ok) {
          try {
            next.toString();
          } catch {
            ok = false; // e.g. an alias before its anchor: not expressible as a Document
          }
        }
        if (!ok) {
          for (const k of [...markers.keys()].slice(before)) markers.delete(k);
          files.length = beforeFiles;
          continue;
        }
        current = next;
        history.push(next);
        chain.push(`data:${name}: ${said}`);
        break;
      }
    }
    const [out, how] = stringify(history, chain, rng);
    text = replaceMarkers(out, markers);
    if (chain.length) chain.push(`stringify ${how}`);
  }

  const textSteps = chain.length === 0 ? rng.int(1, 2) : rng.chance(0.3) ? 1 : 0;
  for (let step = 0; step < textSteps; step++) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const name = rng.weighted(TEXT_WEIGHTS);
      let r = null;
      try {
        r = /** @type {any} */ (TEXT_MUTATIONS)[name](text, rng);
      } catch {
        /* a text the mutation did not expect: another one is drawn */
      }
      if (!r) continue;
      text = r[0];
      chain.push(`text:${name}: ${r[1]}`);
      break;
    }
  }

  let bytes = Buffer.from(text, isUtf8Text(seed) ? 'utf8' : 'latin1');
  if (rng.chance(0.06) || chain.length === 0) {
    const name = rng.pick(Object.keys(BYTE_MUTATIONS));
    const r = /** @type {any} */ (BYTE_MUTATIONS)[name](bytes, rng);
    if (r) {
      bytes = r[0];
      chain.push(`bytes:${name}: ${r[1]}`);
    }
  }
  return { id: `m${number}`, number, seed, bytes, chain, files };
}

function isUtf8Text(seed) {
  return isUtf8(Buffer.from(seed.text, 'utf8').toString('latin1')) || !/[\u0080-\u00ff]/.test(seed.text);
}

/**
 * Block (mcpgen's quick parser), flow and JSON (the yaml package): every mutant takes one. When
 * the last document cannot be written in the chosen style, the one before it is (and the chain
 * loses the steps that were dropped).
 */
function stringify(history, chain, rng) {
  const style = rng.weighted([
    [4, 'any'],
    [4, 'block'],
    [2, 'flow'],
    [1, 'json'],
  ]);
  const lineWidth = rng.pick([0, 0, 80, 20]);
  for (let i = history.length - 1; i >= 0; i--) {
    try {
      const r = stringifyAs(history[i], style, lineWidth, rng);
      chain.length = i;
      return r;
    } catch {
      /* an earlier document */
    }
  }
  chain.length = 0;
  return [String(history[0]), 'as parsed'];
}

function printable(doc) {
  try {
    doc.toString();
    return true;
  } catch {
    return false;
  }
}

function stringifyAs(doc, style, lineWidth, rng) {
  if (style === 'json') {
    try {
      const indent = rng.pick([0, 2]);
      return [`${JSON.stringify(doc.toJS({ maxAliasCount: 1000 }), null, indent)}\n`, `json (indent ${indent})`];
    } catch {
      /* aliases too many, or cycles: YAML then */
    }
  }
  const collectionStyle = style === 'json' ? 'any' : style;
  return [
    doc.toString({ collectionStyle: /** @type {any} */ (collectionStyle), lineWidth }),
    `${collectionStyle} (lineWidth ${lineWidth})`,
  ];
}

/** Markers become raw text; block values get the indentation of the line they are on. */
function replaceMarkers(text, markers) {
  if (!markers.size) return text;
  return text.replace(/(["']?)(__FZ\d+__)\1/g, (m, _q, name, offset) => {
    const raw = markers.get(name);
    if (!raw) return m;
    const lineStart = text.lastIndexOf('\n', offset) + 1;
    const indent = /^ */.exec(text.slice(lineStart, offset))?.[0].length ?? 0;
    return raw(indent);
  });
}
