/** `mcpgen schema`: print the manifest's JSON Schema (for editors and other tools). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_OK, type CliIO } from '../io.js';

export const SCHEMA_PATH = fileURLToPath(new URL('../../schemas/manifest.v1.json', import.meta.url));

export function schemaCommand(io: CliIO): number {
  const text = readFileSync(SCHEMA_PATH, 'utf8');
  if (io.outcome) io.outcome.extra.schema = JSON.parse(text);
  io.stdout(text);
  return EXIT_OK;
}
