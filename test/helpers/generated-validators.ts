/**
 * vitest globalSetup: the precompiled manifest validators (cli/validate/schema/compiled-*.ts) are
 * build output, not committed; the tests run the TS sources, so they are written here as
 * `npm run build` writes them before tsc.
 */
import { writeManifestValidators } from '../../scripts/manifest-validators.mjs';

export default async function setup(): Promise<void> {
  await writeManifestValidators();
}
