/**
 * The names `init` writes into the starter manifest: the server's npm package name (from --name,
 * the folder's package.json or the folder's name), split into the server name and, when scoped,
 * the package; and each value as a YAML scalar that reads back as the same string.
 */
import { yamlLib } from '../load/yaml-lib.js';

/** An npm package name as init writes it: lowercase, `[a-z0-9-._~]`, no leading dot or underscore, optionally under a scope (`@scope/name`). */
const PACKAGE = /^(?:@([a-z0-9-~][a-z0-9-._~]*)\/)?([a-z0-9-~][a-z0-9-._~]*)$/;

export interface ServerNames {
  /** server.name: the package name without its scope (the command's name too). */
  name: string;
  /** server.package, when it differs from the name (a scoped package), else null. */
  package: string | null;
}

/** A folder name → an npm-safe server name: accents dropped (ü → u), lowercase, `[a-z0-9-._~]`. */
export function serverNameFrom(dirName: string): string {
  const n = dirName
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return n || 'my-mcp-server';
}

/** The server's names for npm package name `pkg` (`@acme/weather` → weather, in @acme/weather), or null when npm would refuse it. */
export function serverNames(pkg: string): ServerNames | null {
  const m = PACKAGE.exec(pkg);
  if (!m || pkg.length > 214) return null;
  return { name: m[2]!, package: m[1] === undefined ? null : pkg };
}

/** Whether `name` is a package name init can use as it is (a package.json's `name`, say). */
export function usableName(name: unknown): name is string {
  return typeof name === 'string' && serverNames(name) !== null;
}

/**
 * `text` as a YAML scalar that reads back as this very string: plain when it can be, quoted when
 * YAML would read it as something else (2024, 1e3, 0x10, null, true, ~) or could not read it plain (@acme/x).
 */
export function yamlString(text: string): string {
  return yamlLib().stringify(text, { lineWidth: 0 }).trimEnd();
}
