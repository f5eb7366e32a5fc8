/**
 * `mcpgen import openapi <file>`: one tool per operation of an OpenAPI document, each calling the
 * API through its `http:` block, merged into the manifest (created when missing). A re-import
 * updates what it imported and the user left alone, and keeps what the user edited.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { apiEntry } from '../import/openapi/api.js';
import { type MergeItem, mergeImport } from '../import/openapi/merge.js';
import { mapOperations, METHODS, type Rename, snake } from '../import/openapi/operations.js';
import { readOpenApi } from '../import/openapi/read.js';
import { isObject, SchemaConverter } from '../import/openapi/schemas.js';
import { MAX_ALIAS_COUNT } from '../load/yaml.js';
import { quickParseYaml } from '../load/quick-yaml.js';
import { yamlLib } from '../load/yaml-lib.js';
import { MAX_TOOLS } from '../lint/rules/tools.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { checkManifestText } from '../mcp/check-manifest.js';
import { commandLine, failure, slashes } from '../report/outcome.js';
import { replaceAtomic, writeAtomic } from '../write/write.js';

export interface ImportFlags {
  format: string;
  file: string;
  tag?: string[];
  path?: string[];
  operation?: string[];
  rename?: string[];
  api?: string;
  manifest?: string;
  dryRun?: boolean;
}

const ORDER: MergeItem['action'][] = ['added', 'updated', 'kept', 'removed', 'skipped', 'unchanged'];

export async function importCommand(o: ImportFlags, io: CliIO): Promise<number> {
  if (o.format !== 'openapi') throw new UsageError(`unknown import format "${o.format}": use openapi`);
  const manifestAbs = path.resolve(io.cwd, o.manifest ?? 'mcpgen.yaml');
  const manifestShown = path.relative(io.cwd, manifestAbs) || manifestAbs;
  const source = existsSync(manifestAbs) ? readFileSync(manifestAbs, 'utf8') : undefined;
  const existing = source === undefined ? {} : manifestData(source, manifestShown);
  if (source !== undefined) checkSections(existing, source, manifestShown);

  const doc = await readOpenApi(o.file, io.cwd);
  const info = isObject(doc.data.info) ? doc.data.info : {};
  const from = slashes(path.relative(path.dirname(manifestAbs), doc.abs));
  const api = o.api ?? previousApi(existing, from) ?? defaultApiName(info.title);
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(api))
    throw new UsageError(`--api ${api}: an api name is a letter, then up to 63 letters, digits, \`_\` or \`-\``);

  const mapped = mapOperations(
    doc.data,
    doc.version,
    { tags: o.tag, paths: o.path, operations: o.operation, renames: (o.rename ?? []).map(parseRename) },
    api,
  );
  if (mapped.tools.length === 0)
    throw new UsageError(
      `${o.file}: no operation ${o.tag || o.path || o.operation ? 'matches the filters' : 'to import'}`,
    );
  const { entry, notes } = apiEntry(doc.data, api);
  const result = mergeImport({
    source,
    data: existing,
    from,
    tools: mapped.tools,
    schemas: mapped.schemas,
    operations: allOperations(doc.data, doc.version),
    api: { name: api, entry },
    server: serverOf(info, manifestAbs),
  });

  const counts = Object.fromEntries(ORDER.map((a) => [a, result.items.filter((i) => i.action === a).length]));
  io.stdout(`import ${o.file} → ${manifestShown}${source === undefined ? ' (new)' : ''}, api ${api}\n`);
  for (const action of ORDER) {
    for (const i of result.items.filter((x) => x.action === action && (action !== 'unchanged' || x.reason)))
      io.stdout(
        `  ${action.padEnd(9)} ${i.name}${i.name === snake(i.operation) ? '' : `  (${i.operation})`}${i.reason ? `  (${i.reason})` : ''}\n`,
      );
  }
  const s = result.schemas;
  const schemaLine = [
    s.added.length && `${s.added.length} added`,
    s.updated.length && `${s.updated.length} updated`,
    s.kept.length && `${s.kept.length} kept (${s.kept.map((n) => `${n}: ${s.reasons[n]}`).join('; ')})`,
    s.removed.length && `${s.removed.length} removed`,
  ].filter(Boolean);
  if (schemaLine.length) io.stdout(`  schemas:  ${schemaLine.join(', ')}\n`);
  for (const r of s.renamed)
    io.stdout(
      `  schemas:  ${r.from} imported as ${r.to} (a schema that is not this import's has the name ${r.from})\n`,
    );
  if (result.apiAdded)
    io.stdout(
      `  api:      ${api} (base URL from ${entry.baseUrl && (entry.baseUrl as { env: string }).env}${authLine(entry)})\n`,
    );
  if (counts.added && previousApi(existing, from) !== undefined)
    io.stdout(
      '  note:     every selected operation without an entry is added, one whose tool you deleted too: leave operations out with --tag, --path or --operation (docs/openapi.md, "Leaving operations out")\n',
    );
  for (const n of [...notes, ...mapped.notes].slice(0, 20)) io.stdout(`  note:     ${n}\n`);
  const more = notes.length + mapped.notes.length - 20;
  if (more > 0) io.stdout(`  note:     … and ${more} more\n`);
  io.stdout(`${ORDER.map((a) => `${counts[a]} ${a === 'kept' ? 'kept (edited)' : a}`).join(', ')}\n`);

  const changed = source !== result.text;
  const toolCount =
    Object.keys(isObject(existing.tools) ? existing.tools : {}).length +
    result.items.filter((i) => i.action === 'added').length -
    result.items.filter((i) => i.action === 'removed').length;
  if (toolCount > MAX_TOOLS)
    io.stdout(
      `${toolCount} tools: several clients cap tools at ${MAX_TOOLS}; import a part with --tag, --path or --operation (tags: ${tagsOf(doc.data).slice(0, 8).join(', ')}${tagsOf(doc.data).length > 8 ? ', …' : ''})\n`,
    );
  if (io.outcome) {
    io.outcome.project = path.dirname(manifestAbs);
    if (changed)
      io.outcome.changes.push({
        action: source === undefined ? 'create' : 'edit',
        path: path.basename(manifestAbs),
        owner: 'user',
        from: null,
      });
    io.outcome.extra.import = {
      api,
      from,
      counts,
      items: result.items,
      schemas: result.schemas,
      notes: [...notes, ...mapped.notes],
    };
  }
  // The merged text is validated as the manifest before anything is written: an import never
  // leaves a manifest with errors it did not have.
  const after = changed ? checkManifestText(manifestAbs, manifestShown, result.text) : undefined;
  if (after && after.errors > 0) {
    const before = source === undefined ? 0 : checkManifestText(manifestAbs, manifestShown, source).errors;
    if (after.errors > before) {
      const lines = after.diagnostics
        .filter((d) => d.severity === 'error')
        .slice(0, 10)
        // The lines are the merged text's, which was not written: the path says which entry.
        .map(
          (d) =>
            `${d.file}:${d.line}:${d.column} (in the merged result)${d.path ? ` at ${d.path}` : ''}: error ${d.code} ${d.message}`,
        );
      for (const l of lines) io.stderr(`${l}\n`);
      const message = `with this import ${manifestShown} would not validate (${after.errors} error${after.errors === 1 ? '' : 's'}); nothing was written; the lines above are those of the merged result (name imported tools with --rename <operationId>=<name>, or leave operations out with --tag, --path or --operation)`;
      io.stderr(`mcpgen: ${message}\n`);
      if (io.outcome) io.outcome.error = failure('usage', message, lines);
      return EXIT_PROBLEMS;
    }
  }
  const state = !after
    ? ''
    : `${after.errors ? `${after.errors} error${after.errors === 1 ? '' : 's'}, as before` : 'valid'}${after.warnings ? `; ${after.warnings} warning${after.warnings === 1 ? '' : 's'}: mcpgen validate lists them` : ''}`;
  if (o.dryRun) {
    io.stdout(
      changed ? `dry run, nothing written; ${manifestShown} would be ${state}\n` : `${manifestShown} is up to date\n`,
    );
    return EXIT_OK;
  }
  if (changed) (source === undefined ? writeAtomic : replaceAtomic)(manifestAbs, result.text);
  if (io.outcome) io.outcome.applied = changed;
  const generate = commandLine(['mcpgen', 'generate', ...(o.manifest ? ['-f', o.manifest] : [])]);
  io.outcome?.next.push({ message: 'generate the project', command: generate, cwd: '.' });
  if (changed) io.stdout(`✔ wrote ${manifestShown} (${state}); next: ${generate}\n`);
  else io.stdout(`${manifestShown} is up to date\n`);
  return EXIT_OK;
}

function manifestData(source: string, shown: string): Record<string, unknown> {
  // The loader's quick parser first: a large imported manifest parses in a tenth of the time.
  const quick = quickParseYaml(source);
  if (quick) return quick.data;
  // As the loader reads it: `<<` merge keys, and as many aliases as a manifest may have.
  const doc = yamlLib().parseDocument(source, { merge: true, uniqueKeys: false });
  if (doc.errors.length) {
    const line = doc.errors[0]!.linePos?.[0]?.line ?? 1;
    throw new UsageError(
      `${shown}:${line}: not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix it before importing`,
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (err) {
    throw new UsageError(`${shown}: ${(err as Error).message}; mcpgen validate says where, fix it before importing`);
  }
  if (!isObject(data)) throw new UsageError(`${shown}: not a manifest (a mapping); fix it before importing`);
  return data;
}

/** A section the import writes into must be a mapping; no value (`tools:`) is read as an empty one. */
function checkSections(data: Record<string, unknown>, source: string, shown: string): void {
  for (const section of ['apis', 'schemas', 'tools']) {
    const v = data[section];
    if (v === undefined || v === null || isObject(v)) continue;
    const at = new RegExp(`^${section}[ \\t]*:`, 'm').exec(source);
    const line = at ? source.slice(0, at.index).split('\n').length : 1;
    throw new UsageError(
      `${shown}:${line}: \`${section}\` is ${Array.isArray(v) ? 'a list' : `the value ${JSON.stringify(v)}`}, not a mapping of entries; fix it before importing`,
    );
  }
}

/** `from=to` for one tool, `prefix:<text>` or `strip:<text>` for every name. */
function parseRename(rule: string): Rename {
  const m = /^(prefix|strip):(.+)$/.exec(rule);
  if (m) return m[1] === 'prefix' ? { prefix: m[2]! } : { strip: m[2]! };
  const eq = rule.indexOf('=');
  if (eq <= 0 || eq === rule.length - 1)
    throw new UsageError(`--rename ${rule}: use <operationId or tool>=<new name>, prefix:<text> or strip:<text>`);
  const to = rule.slice(eq + 1);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(to))
    throw new UsageError(`--rename ${rule}: a tool name is 1-64 letters, digits, \`_\` or \`-\``);
  return { from: rule.slice(0, eq), to };
}

/** The api this document's entries call, when it was imported before (so a re-import needs no --api). */
function previousApi(existing: Record<string, unknown>, from: string): string | undefined {
  for (const entry of Object.values(isObject(existing.tools) ? existing.tools : {}))
    if (isObject(entry) && isObject(entry.imported) && entry.imported.from === from && isObject(entry.http))
      if (typeof entry.http.api === 'string') return entry.http.api;
  return undefined;
}

/** `Swagger Petstore` → `petstore`, `GitHub v3 REST API` → `github`. */
function defaultApiName(title: unknown): string {
  const words = snake(typeof title === 'string' ? title : '')
    .split('_')
    .filter((w) => w && !['api', 'the', 'rest', 'openapi', 'swagger', 'v1', 'v2', 'v3'].includes(w));
  const name = words.slice(0, 2).join('_');
  return /^[a-z]/.test(name) ? name : 'api';
}

function serverOf(info: Record<string, unknown>, manifestAbs: string): Record<string, unknown> {
  const title =
    typeof info.title === 'string' && info.title.trim() ? info.title.trim() : path.basename(path.dirname(manifestAbs));
  const version = typeof info.version === 'string' && /^\d+\.\d+\.\d+/.test(info.version) ? info.version : '0.1.0';
  const server: Record<string, unknown> = { name: title };
  // A title that is no npm name (`Swagger Petstore`) needs one for the generated package.json.
  const pkg = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  if (pkg !== title) server.package = `${pkg || 'api'}-mcp`;
  server.version = version;
  if (typeof info.description === 'string' && info.description.trim())
    server.description = info.description.trim().split('\n')[0]!.slice(0, 200);
  return server;
}

function authLine(entry: Record<string, unknown>): string {
  const a = entry.auth as Record<string, string> | undefined;
  if (!a) return '';
  return a.type === 'basic' ? `, basic auth from ${a.usernameEnv} and ${a.passwordEnv}` : `, ${a.type} from ${a.env}`;
}

function allOperations(doc: Record<string, unknown>, version: '3.0' | '3.1'): Set<string> {
  const out = new Set<string>();
  // A path item may be a `$ref` (to components.pathItems): its operations are there.
  const refs = new SchemaConverter(doc, version);
  for (const [p, raw] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    const item = refs.resolve(raw);
    if (isObject(item))
      for (const m of METHODS) {
        const op = item[m];
        if (isObject(op)) out.add(typeof op.operationId === 'string' ? op.operationId : `${m} ${p}`);
      }
  }
  return out;
}

function tagsOf(doc: Record<string, unknown>): string[] {
  const tags = new Map<string, number>();
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {}))
    if (isObject(item))
      for (const m of METHODS) {
        const op = item[m];
        if (isObject(op) && Array.isArray(op.tags))
          for (const t of op.tags) tags.set(String(t), (tags.get(String(t)) ?? 0) + 1);
      }
  return [...tags.entries()].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} (${n})`);
}
