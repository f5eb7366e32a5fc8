/**
 * `mcpgen init [DIR]`: a commented starter manifest with every primitive kind, then a full
 * generate, then the next steps. Refuses to overwrite an existing manifest.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, type CliIO } from '../io.js';
import { renderTemplate } from '../render/handlebars.js';
import { writeAtomic } from '../write/write.js';
import { SCHEMA_PATH } from './schema.js';
import { generateCommand } from './generate.js';

export interface InitOptions {
  dir?: string;
  name?: string;
}

/** A folder name → an npm-safe server name: lowercase, `[a-z0-9-._~]`, no leading dot/underscore. */
export function serverNameFrom(dirName: string): string {
  const n = dirName
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return n || 'my-mcp-server';
}

export async function initCommand(opts: InitOptions, io: CliIO): Promise<number> {
  const dir = path.resolve(io.cwd, opts.dir ?? '.');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${opts.dir} exists and is not a folder`);
  for (const name of ['mcpgen.yaml', 'mcpgen.yml']) {
    if (existsSync(path.join(dir, name)))
      throw new UsageError(`${path.relative(io.cwd, path.join(dir, name)) || name} already exists; init never overwrites a manifest (edit it and run mcpgen generate)`);
  }
  const name = opts.name ?? serverNameFrom(path.basename(dir));
  if (!/^[a-z0-9-~][a-z0-9-._~]*$/.test(name) || name.length > 214)
    throw new UsageError(`"${name}" is not a valid npm package name for the server; pass --name with lowercase letters, digits and -`);
  mkdirSync(dir, { recursive: true });
  const schemaRef = path.relative(dir, SCHEMA_PATH).split(path.sep).join('/');
  const manifest = path.join(dir, 'mcpgen.yaml');
  writeAtomic(manifest, renderTemplate('init/mcpgen.yaml', { name, schemaRef }));
  io.stdout(`  create    ${path.relative(io.cwd, manifest)}\n`);
  const code = await generateCommand({ file: manifest }, io);
  if (code !== EXIT_OK) return code;
  const cd = path.relative(io.cwd, dir);
  io.stdout(
    [
      '',
      `Your MCP server "${name}" is ready. Next:`,
      ...(cd ? [`  cd ${cd}`] : []),
      '  npm install',
      '  npm test                 # type-check, then the generated contract tests',
      '  npm start                # serve over stdio (npm run start:http for Streamable HTTP)',
      '',
      'Edit mcpgen.yaml and run `mcpgen generate` to change what the server offers;',
      'write your logic in src/handlers/ (mcpgen never overwrites those files).',
      '',
    ].join('\n'),
  );
  return EXIT_OK;
}
