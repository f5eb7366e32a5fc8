import { createRequire } from 'node:module';

type YamlLib = typeof import('yaml');
let lib: YamlLib | undefined;

/**
 * The yaml package, loaded on first use: manifests the quick path (quick-yaml.ts) reads never need
 * it, and loading it is a good part of a small validate's time. Synchronous (its CommonJS build),
 * so loading a manifest stays synchronous.
 */
export function yamlLib(): YamlLib {
  return (lib ??= createRequire(import.meta.url)('yaml') as YamlLib);
}
