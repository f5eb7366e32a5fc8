/**
 * Where mcpgen's own files are, found from this module's place: `dist/` when built, `cli/` when
 * run from sources (tests). The bundled commands (scripts/bundle-commands.mjs) keep this module
 * apart, so bundled code finds the same files as the modules tsc wrote.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/ (or cli/): the compiled code, and the precompiled templates. */
export const CODE_DIR = path.dirname(fileURLToPath(import.meta.url));
/** The package: templates/ and schemas/. */
export const PACKAGE_ROOT = path.dirname(CODE_DIR);
