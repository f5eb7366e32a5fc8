/**
 * The `server.json` the official MCP Registry reads: the server's identity and how to run its npm
 * package and its bundles, over stdio. Checked against the vendored schema in test/pack.test.ts.
 * @see https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/generic-server-json.md
 */
import type { IR } from '../normalize/ir.js';
import type { ProjectPackage } from './mcpb-manifest.js';

export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The registry's limit on `description` (and `title`). */
const MAX_TEXT = 100;

/** A bundle written beside server.json: its file name and SHA-256 (hex). */
export interface BundleFile {
  file: string;
  sha256: string;
}

export interface ServerJsonResult {
  json: Record<string, unknown>;
  /** Things the user should fix before publishing. */
  notes: string[];
}

/** The Registry schema's form of a server name: `<reverse-DNS namespace>/<name>`, 3 to 200 characters. */
const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/**
 * What is wrong with `name` as a registry name (null: nothing), with an example made from the npm
 * package's name: the Registry refuses a server.json whose name breaks its schema.
 */
export function registryNameProblem(name: string, packageName: string): string | null {
  if (REGISTRY_NAME.test(name) && name.length >= 3 && name.length <= 200) return null;
  const base = packageName.replace(/^@[^/]+\//, '').replace(/[^a-zA-Z0-9._-]/g, '-');
  return `${JSON.stringify(name)} is not <reverse-DNS namespace>/<name>, e.g. io.github.<you>/${base} (letters, digits, \`.\` and \`-\`, one \`/\`, then letters, digits, \`.\`, \`_\` and \`-\`; 3 to 200 characters)`;
}

/**
 * `registryName` is the reverse-DNS name (`io.github.user/weather`) the registry checks against the
 * npm package's `mcpName`: from the option, else package.json `mcpName`, else guessed.
 */
export function serverJson(
  ir: IR,
  pkg: ProjectPackage,
  registryName?: string,
  bundles: readonly BundleFile[] = [],
): ServerJsonResult {
  const s = ir.server;
  const notes: string[] = [];
  const name = registryName ?? pkg.mcpName ?? guessName(s.packageName, pkg, notes);
  if (pkg.mcpName !== undefined && pkg.mcpName !== name) {
    notes.push(
      `package.json mcpName is ${JSON.stringify(pkg.mcpName)} but server.json says ${JSON.stringify(name)}: the registry requires them equal`,
    );
  }
  const description = clip(s.description ?? s.title ?? s.name, 'server.description', notes);
  const icons = s.icons.filter((i) => i.src.startsWith('https://'));
  return {
    json: {
      $schema: SERVER_SCHEMA_URL,
      name,
      ...(s.title !== null ? { title: clip(s.title, 'server.title', notes) } : {}),
      description,
      version: s.version,
      ...(s.websiteUrl !== null ? { websiteUrl: s.websiteUrl } : {}),
      ...(icons.length ? { icons } : {}),
      ...repositoryOf(pkg),
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://registry.npmjs.org',
          identifier: s.packageName,
          version: s.version,
          // pack makes bundles of stdio servers alone (cli/pack/stdio.ts): the package runs over stdio too.
          transport: { type: 'stdio' },
        },
        ...bundles.map((b) => mcpbPackage(b, s.version, pkg, notes)),
      ],
    },
    notes,
  };
}

/**
 * An MCPB package: the Registry downloads it from a GitHub or GitLab release (the only hosts it
 * accepts) and clients check the file against `fileSha256` before running it.
 */
function mcpbPackage(b: BundleFile, version: string, pkg: ProjectPackage, notes: string[]): Record<string, unknown> {
  const repo = repositoryOf(pkg).repository as { url: string; source: string } | undefined;
  const file = encodeURIComponent(b.file);
  let identifier: string;
  if (repo?.source === 'github') identifier = `${repo.url}/releases/download/v${version}/${file}`;
  else if (repo?.source === 'gitlab') identifier = `${repo.url}/-/releases/v${version}/downloads/${file}`;
  else {
    identifier = `https://github.com/YOUR-GITHUB-USER/${pkg.name?.replace(/^@[^/]+\//, '') ?? 'server'}/releases/download/v${version}/${file}`;
    if (!notes.some((n) => n.startsWith('bundle URL')))
      notes.push(
        'bundle URL is a placeholder: set a GitHub or GitLab "repository" in package.json (the bundles are then looked for in its release v' +
          `${version}), or edit the mcpb identifiers`,
      );
  }
  return { registryType: 'mcpb', identifier, fileSha256: b.sha256, transport: { type: 'stdio' } };
}

function clip(text: string, what: string, notes: string[]): string {
  if (text.length <= MAX_TEXT) return text;
  notes.push(`${what} is ${text.length} characters; the registry allows ${MAX_TEXT}: shortened`);
  return `${text.slice(0, MAX_TEXT - 1)}…`;
}

/** `io.github.<owner>/<name>` from a GitHub repository URL, else a placeholder the user must replace. */
function guessName(packageName: string, pkg: ProjectPackage, notes: string[]): string {
  const base = packageName.replace(/^@[^/]+\//, '');
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const owner = url ? /github\.com[/:]([A-Za-z0-9-]+)\//.exec(url)?.[1] : undefined;
  const name = `io.github.${owner ?? 'YOUR-GITHUB-USER'}/${base}`;
  notes.push(
    owner
      ? `registry name ${name} guessed from the repository; add "mcpName": "${name}" to package.json (the registry checks it on npm)`
      : `registry name is a placeholder (${name}): pass --registry-name io.github.<you>/${base} or set "mcpName" in package.json`,
  );
  return name;
}

function repositoryOf(pkg: ProjectPackage): Record<string, unknown> {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (!url) return {};
  const clean = url
    .replace(/^git\+/, '')
    .replace(/\.git$/, '')
    .replace(/^github:/, 'https://github.com/');
  if (!/^https:\/\//.test(clean)) return {};
  const source = /github\.com/.test(clean) ? 'github' : /gitlab\.com/.test(clean) ? 'gitlab' : 'git';
  return { repository: { url: clean, source } };
}
