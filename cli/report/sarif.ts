import type { Diagnostic, Severity } from '../diagnostics.js';
import { lintRules, ruleByCode } from '../lint/registry.js';
import { VERSION } from '../version.js';
import { pathToFileURL } from 'node:url';
import { CODE_DESCRIPTIONS } from './code-descriptions.js';
import { helpUri } from './help-uri.js';
import { type ArtifactBase, artifactPath } from './locations.js';
import { fullRange } from './types.js';

type Level = 'error' | 'warning' | 'note' | 'none';
const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The base of artifact URIs relative to the repository root, as GitHub code scanning and CodeQL name it. */
export const SRCROOT = '%SRCROOT%';

/**
 * `--format sarif`: a SARIF 2.1.0 log with one run. `tool.driver.rules` lists every lint rule (with
 * its default configuration) and every other code that occurs, each with the link to its
 * documentation (`helpUri`); results refer to them by id and index, with the region as 1-based
 * lines and columns (end column exclusive, as SARIF counts). With `base`, a file inside the
 * repository is a URI relative to its root, under `uriBaseId` %SRCROOT% (which
 * `originalUriBaseIds` resolves to the root's `file:` URI); one outside it, an absolute `file:` URI.
 */
export function formatSarif(diags: readonly Diagnostic[], base?: ArtifactBase): string {
  const rules: Record<string, unknown>[] = [];
  const index = new Map<string, number>();
  const addRule = (code: string, level: Level, extra: Record<string, unknown> = {}): void => {
    if (index.has(code)) return;
    const lint = ruleByCode(code);
    index.set(code, rules.length);
    const help = helpUri(code);
    rules.push({
      id: code,
      ...(lint ? { name: lint.id } : {}),
      shortDescription: { text: lint?.description ?? CODE_DESCRIPTIONS[code] ?? code },
      ...(help ? { helpUri: help } : {}),
      defaultConfiguration: { level, ...extra },
    });
  };
  for (const r of lintRules)
    addRule(r.code, r.default === 'error' ? 'error' : 'warning', r.default === 'off' ? { enabled: false } : {});
  for (const d of diags) addRule(d.code, LEVEL[d.severity]);

  const results = diags.map((d) => {
    const r = fullRange(d);
    return {
      ruleId: d.code,
      ruleIndex: index.get(d.code)!,
      level: LEVEL[d.severity],
      message: { text: d.hint ? `${d.message}\nhint: ${d.hint}` : d.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: artifactLocation(d.file, base),
            region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn },
          },
        },
      ],
      ...(d.path !== undefined || d.entry !== undefined
        ? {
            properties: {
              ...(d.path !== undefined ? { jsonPath: d.path } : {}),
              ...(d.entry !== undefined ? { entry: d.entry } : {}),
            },
          }
        : {}),
    };
  });

  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcpgen', version: VERSION, semanticVersion: VERSION, rules } },
        ...(base ? { originalUriBaseIds: { [SRCROOT]: { uri: folderUri(base.root) } } } : {}),
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function artifactLocation(file: string, base: ArtifactBase | undefined): { uri: string; uriBaseId?: string } {
  const a = artifactPath(file, base);
  return a.inside && base ? { uri: fileUri(a.path), uriBaseId: SRCROOT } : { uri: fileUri(a.path) };
}

/** An absolute folder as a `file:` URI ending in `/`, as SARIF requires of a base. */
function folderUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** A path as a URI: relative as a URI reference, absolute as `file:` (forward slashes, unsafe characters percent-encoded). */
function fileUri(file: string): string {
  const p = file.split('\\').join('/');
  if (/^[A-Za-z]:\//.test(p)) return `file:///${encodeURI(p)}`;
  if (p.startsWith('/')) return `file://${encodeURI(p)}`;
  return encodeURI(p).replace(/[?#]/g, (c) => encodeURIComponent(c));
}
