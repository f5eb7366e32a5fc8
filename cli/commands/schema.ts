/** `mcpgen schema`: print the manifest's JSON Schema (for editors and other tools). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_OK, type CliIO } from '../io.js';

export const SCHEMA_PATH = fileURLToPath(new URL('../../schemas/manifest.v1.json', import.meta.url));

export function schemaCommand(io: CliIO): number {
  io.stdout(readFileSync(SCHEMA_PATH, 'utf8'));
  return EXIT_OK;
}
