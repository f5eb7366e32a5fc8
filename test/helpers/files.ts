import fs from 'node:fs';
import path from 'node:path';

/** Every YAML file under `dir` (node_modules skipped): the manifests the differential tests feed on. */
export function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : yamlFiles(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}
