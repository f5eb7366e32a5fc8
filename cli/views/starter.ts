/**
 * A starter view for a tool (`mcpgen init --view`, `mcpgen add view`): ui/<tool>/index.html and
 * main.ts, which uses `App` from @modelcontextprotocol/ext-apps. Written once, then the user's:
 * a file already there is kept as it is.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { renderTemplate } from '../render/handlebars.js';
import { writeAtomic } from '../write/write.js';

/** The view's folder for a tool, relative to the manifest, as `build:` names it. */
export const starterFolder = (tool: string): string => `ui/${tool.replace(/[^A-Za-z0-9._-]/g, '_')}`;

/** Writes what is missing of the starter view; the manifest-relative paths written and kept. */
export function writeStarterView(manifestDir: string, tool: string): { created: string[]; kept: string[] } {
  const folder = starterFolder(tool);
  const created: string[] = [];
  const kept: string[] = [];
  for (const file of ['index.html', 'main.ts']) {
    const rel = `${folder}/${file}`;
    const abs = path.join(manifestDir, rel);
    if (existsSync(abs)) {
      kept.push(rel);
      continue;
    }
    mkdirSync(path.dirname(abs), { recursive: true });
    writeAtomic(abs, renderTemplate(`view/${file}`, { tool }));
    created.push(rel);
  }
  return { created, kept };
}
