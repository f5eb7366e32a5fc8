import type { CST, Document, LineCounter, Node, Pair, YAMLError, YAMLMap } from 'yaml';
import type { Diagnostic, Severity } from '../diagnostics.js';
import { Codes } from '../manifest/codes.js';
import { isMergeKey, Locator } from './locate.js';
import { cstTooDeep, dataTooDeep, MAX_NESTING, nestingDiagnostic } from './nesting.js';
import { scanNesting } from './nesting-scan.js';
import { describeUnclosed, findStrayCloser, findUnclosed, type Unclosed } from './unclosed.js';
import { yamlLib } from './yaml-lib.js';

/** Alias expansions allowed when building data: generous for real manifests, fatal for "billion laughs". */
export const MAX_ALIAS_COUNT = 1000;

/** Core-schema tags: anything else (`!!binary`, `!!set`, `!Ref`, …) has no meaning in a manifest. */
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

const SYNTAX_HINTS: Record<string, string> = {
  TAB_AS_INDENT: 'indent with spaces; YAML does not allow tabs for indentation',
  BAD_INDENT: 'check the indentation: entries of one mapping or list start in the same column',
  BLOCK_AS_IMPLICIT_KEY: 'check the indentation, and quote values that contain ": "',
  MULTILINE_IMPLICIT_KEY: 'check the indentation, and quote values that contain ": "',
  MISSING_CHAR: 'close the quote or bracket',
  MULTIPLE_DOCS: 'a manifest is one YAML document: remove the second `---`',
};

export interface ParsedYaml {
  locator: Locator;
  diagnostics: Diagnostic[];
  /** The data, unless the YAML is too broken to trust it. */
  data?: unknown;
}

export function parseManifestYaml(source: string, file: string): ParsedYaml {
  const { LineCounter, isMap, isScalar, isSeq } = yamlLib();
  const lc = new LineCounter();
  const composed = composeDocument(source, lc);
  if (!('doc' in composed)) {
    // Too deep to compose: there is no document, only the offset where the limit is crossed.
    const locator = new Locator(new (yamlLib().Document)(), source);
    return { locator, diagnostics: [nestingDiagnostic(file, locator.span(composed.tooDeep, composed.tooDeep + 1))] };
  }
  const { doc, tokens } = composed;
  const locator = new Locator(doc, source);
  const diagnostics: Diagnostic[] = [];
  const at = (code: string, severity: Severity, message: string, start: number, end: number, hint?: string): void => {
    const r = locator.span(start, end);
    diagnostics.push({
      code,
      severity,
      message,
      file,
      line: r.line,
      column: r.column,
      endLine: r.endLine,
      endColumn: r.endColumn,
      ...(hint ? { hint } : {}),
    });
  };

  // An unclosed bracket or quote is reported where it opens; what the parser says after it only follows from it.
  const unclosed = doc.errors.length > 0 ? openers(tokens, doc.errors) : [];
  const where = (offset: number): string => {
    const r = locator.span(offset, offset);
    return `line ${r.line}, column ${r.column}`;
  };
  for (const u of unclosed) {
    const { message, hint } = describeUnclosed(u, where);
    at(Codes.YAML_SYNTAX, 'error', message, u.offset, u.offset + 1, hint);
  }
  const cutoff = unclosed[0]?.offset ?? Number.POSITIVE_INFINITY;
  // One syntax error per line: the YAML parser often reports the same mistake two or three ways.
  const seenLines = new Set<number>(unclosed.map((u) => locator.span(u.offset, u.offset).line));
  for (const e of doc.errors) {
    if (e.pos[0] >= cutoff) continue;
    const line = locator.span(e.pos[0], e.pos[0]).line;
    if (seenLines.has(line)) continue;
    seenLines.add(line);
    at(Codes.YAML_SYNTAX, 'error', syntaxMessage(e), e.pos[0], e.pos[1], SYNTAX_HINTS[e.code]);
  }
  for (const w of doc.warnings) {
    if (w.code === 'TAG_RESOLVE_FAILED' || w.pos[0] >= cutoff) continue; // a failed tag: reported as CUSTOM_TAG by the walk below
    at(Codes.YAML_WARNING, 'warning', w.message, w.pos[0], w.pos[1]);
  }
  if (doc.errors.length > 0) return { locator, diagnostics };

  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null && doc.contents.source === '')) {
    at(
      Codes.EMPTY_MANIFEST,
      'error',
      'the manifest is empty',
      0,
      0,
      'run `mcpgen init` for a starter manifest, or start with `version: 1` and a `server:` section',
    );
    return { locator, diagnostics };
  }
  const fatal = checkNodes(doc, lc, source, at);
  if (!isMap(doc.contents)) {
    const [s, e] = doc.contents.range ?? [0, 0];
    at(
      Codes.NOT_A_MAPPING,
      'error',
      `the manifest must be a mapping of keys (version, server, tools, …), got ${describeNode(doc.contents)}`,
      s,
      e,
      isSeq(doc.contents)
        ? 'write the top-level keys without `- ` in front: `version: 1`, then `server:`, `tools:`, …'
        : 'start with `version: 1` and a `server:` section, or run `mcpgen init` for a starter manifest',
    );
    return { locator, diagnostics };
  }
  if (fatal) return { locator, diagnostics };
  try {
    const data: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    // Aliases nest a node inside another without the text showing it.
    const deep = dataTooDeep(data, MAX_NESTING);
    if (deep) {
      diagnostics.push(nestingDiagnostic(file, locator.range(deep)));
      return { locator, diagnostics };
    }
    return { locator, diagnostics, data };
  } catch (err) {
    const firstAlias = findFirstAlias(doc);
    const [s, e] = firstAlias?.range ?? [0, 0];
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      at(
        Codes.ALIAS_LIMIT,
        'error',
        `aliases expand to more than ${MAX_ALIAS_COUNT} nodes`,
        s,
        e,
        'this looks like an alias bomb; expand the aliases by hand',
      );
    } else {
      at(
        Codes.YAML_SYNTAX,
        'error',
        `cannot build the manifest data: ${err instanceof Error ? err.message : String(err)}`,
        s,
        e,
      );
    }
    return { locator, diagnostics };
  }
}

/**
 * parseDocument's steps (parse to tokens, compose the first document, MULTIPLE_DOCS after it), with
 * the nesting checked in between: the composer recurses over the tokens, and far too deep text
 * (the scan) would already make the parser slow. `tooDeep`: the offset where the limit is crossed.
 */
function composeDocument(
  source: string,
  lc: LineCounter,
): { doc: Document.Parsed; tokens: CST.Token[] } | { tooDeep: number } {
  const { Parser, Composer, YAMLParseError } = yamlLib();
  // Far past the limit the scan's estimate is certain; closer to it, the tokens decide.
  const scan = scanNesting(source, MAX_NESTING, 4 * MAX_NESTING);
  if (scan) return { tooDeep: scan.at };
  // uniqueKeys off: duplicates are reported below, naming both lines. merge: `<<: *base` is common in
  // hand-written YAML. logLevel 'error' keeps warnings off the console ('silent' would also drop
  // errors such as MULTIPLE_DOCS).
  const composer = new Composer({ uniqueKeys: false, merge: true, logLevel: 'error', schema: 'core' });
  let tooDeep: number | undefined;
  // Kept to find an unclosed bracket or quote after a syntax error (a handful: one per document).
  const tokens: CST.Token[] = [];
  function* checked(parsed: Iterable<CST.Token>): Generator<CST.Token> {
    for (const token of parsed) {
      tooDeep = cstTooDeep(token, MAX_NESTING);
      if (tooDeep !== undefined) return;
      tokens.push(token);
      yield token;
    }
  }
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(checked(new Parser(lc.addNewLine).parse(source)), true, source.length)) {
    if (tooDeep !== undefined) break;
    if (!doc) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'),
      );
      break;
    }
  }
  if (tooDeep !== undefined) return { tooDeep };
  return { doc: doc!, tokens };
}

/** Unclosed brackets and quotes, and a stray closing bracket when it comes first: by offset. */
function openers(tokens: readonly CST.Token[], errors: readonly YAMLError[]): Unclosed[] {
  const found = findUnclosed(tokens);
  const stray = findStrayCloser(errors);
  return stray && !(found[0] && found[0].offset < stray.offset) ? [stray] : found;
}

type Report = (code: string, severity: Severity, message: string, start: number, end: number, hint?: string) => void;
/** Report an error at a node (or any object with a source range); `fatal`: the data cannot be trusted. */
type ReportAt = (
  node: { range?: readonly number[] | null },
  code: string,
  message: string,
  hint?: string,
  fatal?: boolean,
) => void;

/**
 * Problems the YAML parser accepts but a manifest must not contain. Returns true when the data
 * cannot be built, or would not mean what was written (dangling alias, bad merge, custom tag,
 * complex key); duplicate keys still let validation go on (the last one wins, as in JSON.parse).
 */
function checkNodes(doc: Document, lc: LineCounter, source: string, at: Report): boolean {
  const { visit, isMap, isAlias } = yamlLib();
  let fatal = false;
  const report: ReportAt = (node, code, message, hint, isFatal = false) => {
    const [s = 0, e = s] = node.range ?? [];
    at(code, 'error', message, s, e, hint);
    fatal ||= isFatal;
  };
  // One `Node` visitor: yaml's visit() calls only the most specific callback, so a separate `Map`
  // visitor would hide maps (and their tags) from this one.
  visit(doc, {
    Node(_key, node, ancestors) {
      if (isMap(node)) checkKeys(doc, lc, node, report);
      if (node.tag && !PLAIN_TAGS.has(node.tag)) {
        // The node's range starts after its tag; point at the tag itself when it is on the same line.
        const tag = shortTag(node.tag);
        const start = node.range?.[0] ?? 0;
        const tagStart = source.lastIndexOf(tag, start);
        const tagged =
          tagStart >= 0 && !source.slice(tagStart, start).includes('\n')
            ? { range: [tagStart, tagStart + tag.length] }
            : node;
        // Fatal: the data would not be what the user meant (`!include x` is just the string "x"),
        // so validating it would only add misleading errors.
        report(
          tagged,
          Codes.CUSTOM_TAG,
          `tag \`${tag}\` is not supported`,
          'manifests are plain YAML: remove the tag',
          true,
        );
      }
      if (isAlias(node)) {
        const target = node.resolve(doc);
        const name = node.source;
        if (!target) {
          report(node, Codes.YAML_SYNTAX, `alias \`*${name}\` has no anchor \`&${name}\` before it`, undefined, true);
        } else if ((ancestors as readonly unknown[]).includes(target)) {
          // A node holding an alias of itself is an infinite value: no manifest can mean that.
          report(
            node,
            Codes.YAML_SYNTAX,
            `alias \`*${name}\` is inside the node \`&${name}\` it refers to`,
            undefined,
            true,
          );
        }
      }
    },
  });
  return fatal;
}

/** Keys of one mapping: merge keys well-formed, keys plain scalars, no duplicates. */
function checkKeys(doc: Document, lc: LineCounter, map: YAMLMap, report: ReportAt): void {
  const { isCollection, isScalar } = yamlLib();
  const seen = new Map<string, Node>();
  for (const pair of map.items as Pair<Node | null, Node | null>[]) {
    const k = pair.key;
    if (isMergeKey(pair as Pair)) {
      if (!isMergeSource(doc, pair.value)) {
        report(
          pair.value ?? k ?? map,
          Codes.YAML_SYNTAX,
          'a merge key `<<` needs a mapping, an alias of one, or a list of them',
          undefined,
          true,
        );
      }
      continue;
    }
    if (k === null || isCollection(k) || (isScalar(k) && k.value === null)) {
      const message = isCollection(k)
        ? 'mapping keys must be plain text, not lists or mappings'
        : 'a mapping key is empty';
      report(k ?? pair.value ?? map, Codes.COMPLEX_KEY, message, undefined, true);
      continue;
    }
    if (!isScalar(k)) continue;
    const name = String(k.value);
    const first = seen.get(name);
    if (first) {
      const line = first.range ? lc.linePos(first.range[0]).line : undefined;
      report(
        k,
        Codes.DUPLICATE_KEY,
        `duplicate key \`${name}\`${line ? ` (first defined on line ${line})` : ''}`,
        'keys of a mapping must be unique: rename or merge the entries (until then the last one is used)',
      );
    } else seen.set(name, k);
  }
}

/** `<<:` takes a mapping, an alias of one, or a list of those. */
function isMergeSource(doc: Document, value: Node | null): boolean {
  const { isAlias, isMap, isSeq } = yamlLib();
  const one = (n: unknown): boolean => isMap(n) || (isAlias(n) && isMap(n.resolve(doc)));
  return one(value) || (isSeq(value) && value.items.length > 0 && value.items.every(one));
}

function findFirstAlias(doc: Document): Node | undefined {
  const { visit } = yamlLib();
  let found: Node | undefined;
  visit(doc, {
    Alias(_k, node) {
      found = node;
      return visit.BREAK;
    },
  });
  return found;
}

function syntaxMessage(e: YAMLError): string {
  if (e.code === 'MULTIPLE_DOCS') return 'the manifest contains more than one YAML document';
  const text = e.message.replace(/\s*at line \d+, column \d+.*$/s, '');
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function shortTag(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}

function describeNode(node: Node): string {
  const { isScalar, isSeq } = yamlLib();
  if (isSeq(node)) return 'a list';
  if (isScalar(node))
    return node.value === null ? 'nothing (null)' : `the ${typeof node.value} ${JSON.stringify(node.value)}`;
  return 'something else';
}
