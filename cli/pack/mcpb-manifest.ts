/**
 * The manifest.json of an MCP Bundle (MCPB manifest_version 0.3, the newest most desktop clients
 * read) for a generated server: identity from the manifest, tools and prompts listed statically.
 * @see https://github.com/modelcontextprotocol/mcpb/blob/main/MANIFEST.md
 */
import type { IR, PromptIR } from '../normalize/ir.js';

export const MCPB_MANIFEST_VERSION = '0.3';
/** The entry point inside the bundle. */
export const BUNDLE_ENTRY = 'dist/src/main.js';

export interface ProjectPackage {
  name?: string;
  version?: string;
  description?: string;
  author?: string | { name?: string; email?: string; url?: string };
  license?: string;
  homepage?: string;
  repository?: string | { type?: string; url?: string };
  mcpName?: string;
  keywords?: string[];
  engines?: { node?: string };
}

/** `platforms`: where the bundle's binaries run (`compatibility.platforms`: darwin, linux, win32). */
export function mcpbManifest(ir: IR, pkg: ProjectPackage, platforms: readonly string[]): Record<string, unknown> {
  const s = ir.server;
  const author = authorOf(pkg.author) ?? { name: s.name };
  const homepage = s.websiteUrl ?? pkg.homepage;
  return {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: s.packageName.replace(/^@[^/]+\//, ''),
    ...(s.title !== null ? { display_name: s.title } : {}),
    version: s.version,
    description: s.description ?? s.title ?? s.name,
    author,
    ...(homepage ? { homepage } : {}),
    ...(pkg.license ? { license: pkg.license } : {}),
    ...(pkg.keywords?.length ? { keywords: pkg.keywords } : {}),
    server: {
      type: 'node',
      entry_point: BUNDLE_ENTRY,
      // Over stdio: a desktop client starts the bundle as its own child process.
      mcp_config: { command: 'node', args: [`\${__dirname}/${BUNDLE_ENTRY}`], env: {} },
    },
    tools: ir.tools.map((t) => ({ name: t.name, ...(t.description !== null ? { description: t.description } : {}) })),
    tools_generated: false,
    prompts: ir.prompts.map(promptEntry),
    prompts_generated: false,
    compatibility: { platforms: [...platforms], runtimes: { node: pkg.engines?.node ?? '>=20' } },
  };
}

/** MCPB wants each prompt's text: the declared messages, or (a handler renders it) its description. */
function promptEntry(p: PromptIR): Record<string, unknown> {
  const text = p.messages
    ? p.messages.map((m) => (m.content.type === 'text' ? m.content.text : `[${m.content.type}]`)).join('\n\n')
    : (p.description ?? p.title ?? p.name);
  return {
    name: p.name,
    ...(p.description !== null ? { description: p.description } : {}),
    ...(p.args.length ? { arguments: p.args.map((a) => a.name) } : {}),
    text,
  };
}

/** package.json's `author` (a string `Name <email> (url)` or an object) as MCPB's author object. */
function authorOf(a: ProjectPackage['author']): { name: string; email?: string; url?: string } | null {
  if (!a) return null;
  if (typeof a === 'object')
    return a.name ? { name: a.name, ...(a.email ? { email: a.email } : {}), ...(a.url ? { url: a.url } : {}) } : null;
  const m = /^\s*([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$/.exec(a);
  if (!m?.[1]) return null;
  return { name: m[1], ...(m[2] ? { email: m[2] } : {}), ...(m[3] ? { url: m[3] } : {}) };
}
