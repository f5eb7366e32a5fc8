/**
 * `mcpgen add view <tool>`: gives a tool a view (MCP Apps). The manifest gets a `<tool>_view`
 * resource (`ui://<server>/<tool>`, built from ui/<tool>/) and the tool's `ui.resource`; the
 * folder gets a starter index.html and main.ts (kept when already there). The manifest's own text
 * is kept: the two additions are inserted, the result parsed back, compared with what was meant
 * and validated before it is written, in one atomic write.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Node, Pair, YAMLMap } from 'yaml';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIO } from '../io.js';
import { findManifest } from '../load/find.js';
import { yamlLib } from '../load/yaml-lib.js';
import { isRecord } from '../manifest/json-path.js';
import { checkManifestFile, checkManifestText } from '../mcp/check-manifest.js';
import { columnOf, inserted, reprinted } from '../mcp/add-entry.js';
import { starterFolder, writeStarterView } from '../views/starter.js';
import { replaceAtomic } from '../write/write.js';
import { generateLine } from '../report/outcome.js';

export interface AddViewOptions {
  tool: string;
  file?: string;
}

export async function addViewCommand(opts: AddViewOptions, io: CliIO): Promise<number> {
  const manifest = findManifest(io.cwd, opts.file);
  const display = path.relative(io.cwd, manifest) || manifest;
  const before = checkManifestFile(manifest, display);
  if (!before.manifest || before.errors > 0) {
    io.stderr(
      `✖ ${display} has errors; fix them (mcpgen validate lists them) before adding a view; nothing was written\n`,
    );
    return EXIT_PROBLEMS;
  }
  const data = before.manifest.data as Record<string, unknown>;
  const tools = isRecord(data.tools) ? data.tools : {};
  const tool = Object.hasOwn(tools, opts.tool) ? tools[opts.tool] : undefined;
  if (!isRecord(tool))
    throw new UsageError(`no tool \`${opts.tool}\` in ${display}; tools: ${Object.keys(tools).join(', ') || 'none'}`);
  if (tool.ui !== undefined)
    throw new UsageError(`tool \`${opts.tool}\` already has a view (\`ui\` in ${display}); nothing was written`);
  const resources = isRecord(data.resources) ? data.resources : {};
  const name = freeName(`${opts.tool}_view`, resources);
  const server = isRecord(data.server) && typeof data.server.name === 'string' ? data.server.name : 'server';
  const uri = `ui://${slug(server)}/${slug(opts.tool)}`;
  if (Object.values(resources).some((r) => isRecord(r) && r.uri === uri))
    throw new UsageError(`a resource of ${display} already has the URI ${uri}; give the view another by hand`);
  const folder = starterFolder(opts.tool);
  const resource = {
    uri,
    title: `${opts.tool} view`,
    description: `Shows the result of ${opts.tool} in hosts that render views (MCP Apps)`,
    build: `./${folder}`,
    ui: {},
  };
  const expected = {
    ...data,
    tools: { ...tools, [opts.tool]: { ...tool, ui: { resource: name } } },
    resources: { ...resources, [name]: resource },
  };

  // The starter files first: the manifest that names their folder must validate.
  const written = writeStarterView(before.manifest.dir, opts.tool);
  const source = before.manifest.source;
  const withUi = toolUiInserted(source, opts.tool, name) ?? reprintedToolUi(source, opts.tool, name);
  const candidates = [
    withUi && inserted(withUi, 'resources', name, resource),
    withUi && reprinted(withUi, 'resources', name, resource),
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const after = checkManifestText(manifest, display, candidate.text);
    if (!after.manifest || !isDeepStrictEqual(plain(after.manifest.data), plain(expected))) continue;
    if (after.errors > 0) {
      for (const d of after.diagnostics.filter((d) => d.severity === 'error'))
        io.stderr(`${d.file}:${d.line}:${d.column}: error ${d.code}: ${d.message}\n`);
      io.stderr(`✖ with the view, ${display} would not validate; it was not changed\n`);
      return EXIT_PROBLEMS;
    }
    replaceAtomic(manifest, candidate.text);
    io.stdout(`  edit      ${display} (tool ${opts.tool}: ui.resource ${name}; resource ${name}: ${uri})\n`);
    for (const rel of written.created)
      io.stdout(`  create    ${path.relative(io.cwd, path.join(before.manifest.dir, rel))}\n`);
    for (const rel of written.kept)
      io.stdout(`  keep      ${path.relative(io.cwd, path.join(before.manifest.dir, rel))}\n`);
    io.stdout(
      `\nNext: \`mcpgen generate\`, then \`npm run build\` (it runs \`mcpgen build\`, which bundles ${folder}/).\n`,
    );
    if (io.outcome) {
      io.outcome.applied = true;
      io.outcome.extra.view = { resource: name, uri, folder };
      io.outcome.changes.push({ action: 'edit', path: display, owner: 'user', from: null });
      for (const rel of written.created)
        io.outcome.changes.push({ action: 'create', path: rel, owner: 'user', from: null });
      for (const rel of written.kept) io.outcome.changes.push({ action: 'keep', path: rel, owner: 'user', from: null });
      io.outcome.next.push({ message: 'regenerate the project', command: generateLine({ file: opts.file }), cwd: '.' });
    }
    return EXIT_OK;
  }
  io.stderr(
    `✖ could not add the view to ${display} without changing other data (anchors or merge keys?); add it by hand\n`,
  );
  return EXIT_PROBLEMS;
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

/** `ui.resource`'s name: `<tool>_view`, or with a number when a resource already has it. */
function freeName(base: string, resources: Record<string, unknown>): string {
  if (!Object.hasOwn(resources, base)) return base;
  for (let i = 2; ; i++) if (!Object.hasOwn(resources, `${base}${i}`)) return `${base}${i}`;
}

/** A name as a URI's authority or path segment: lowercase letters, digits and hyphens. */
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/^@[^/]+\//, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'view';

/** `ui: { resource: <view> }` inserted as the tool's last key, in its block mapping's indentation. */
function toolUiInserted(source: string, tool: string, view: string): string | undefined {
  const Y = yamlLib();
  const doc = Y.parseDocument(source);
  if (doc.errors.length || !Y.isMap(doc.contents)) return undefined;
  const tools = doc.contents.get('tools', true) as YAMLMap | undefined;
  if (!Y.isMap(tools) || tools.flow) return undefined;
  // The last of a key written twice: the one the data holds.
  const pair = [...tools.items].reverse().find((p: Pair) => Y.isScalar(p.key) && p.key.value === tool) as
    | Pair<Node, Node>
    | undefined;
  const map = pair?.value;
  if (!Y.isMap(map) || (map as YAMLMap).flow || !map.range || !(map as YAMLMap).items.length) return undefined;
  const first = (map as YAMLMap).items[0] as Pair<Node>;
  if (!first.key?.range) return undefined;
  const indent = ' '.repeat(columnOf(source, first.key.range[0]));
  const nl = source.includes('\r\n') ? '\r\n' : '\n';
  let at = map.range[1];
  // At a line start: after the rest of the line the tool's last value ends on.
  if (at > 0 && source[at - 1] !== '\n') {
    const eol = source.indexOf('\n', at);
    at = eol < 0 ? source.length : eol + 1;
  }
  const lead = at === source.length && !source.endsWith('\n') ? nl : '';
  return `${source.slice(0, at)}${lead}${indent}ui: { resource: ${view} }${nl}${source.slice(at)}`;
}

function reprintedToolUi(source: string, tool: string, view: string): string | undefined {
  const Y = yamlLib();
  const doc = Y.parseDocument(source);
  if (doc.errors.length) return undefined;
  doc.setIn(['tools', tool, 'ui'], doc.createNode({ resource: view }));
  return doc.toString({ lineWidth: 0 });
}
