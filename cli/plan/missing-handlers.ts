/**
 * Handler files of the user's that the generated code imports and that are not there (deleted,
 * say): the build cannot compile without them, and `generate` writes their starters again. Said the
 * same way by `generate --check` and by `build`, which reads the record the generated code on disk
 * was made with (src/generated/contracts.json) rather than the manifest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Contracts } from '../render/contracts.js';

export const CONTRACTS_PATH = 'src/generated/contracts.json';

/** The manifest entry each handler file implements (`tool \`greet\``), by the file's project path. */
export function handlerEntries(contracts: Contracts): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, c] of Object.entries(contracts)) {
    const space = key.indexOf(' ');
    if (typeof c?.handler === 'string') out.set(c.handler, `${key.slice(0, space)} \`${key.slice(space + 1)}\``);
  }
  return out;
}

/** Handler files the generated code on disk imports that are missing, with their entries (none without a record). */
export function missingHandlers(projectDir: string, exists: (abs: string) => boolean): [string, string][] {
  let contracts: Contracts;
  try {
    const record = JSON.parse(readFileSync(path.join(projectDir, CONTRACTS_PATH), 'utf8')) as { contracts?: unknown };
    if (typeof record.contracts !== 'object' || record.contracts === null) return [];
    contracts = record.contracts as Contracts;
  } catch {
    return []; // no record, or one not readable: tsc says what is missing
  }
  return [...handlerEntries(contracts)].filter(([file]) => !exists(path.join(projectDir, file)));
}

/** `missing   src/handlers/tools/greet.ts  (the handler of tool `greet`; yours: …)`. */
export function missingLine(file: string, entry: string | undefined): string {
  return `missing   ${file}  (${entry ? `the handler of ${entry}; ` : ''}yours: generate writes its starter)`;
}

/** What to do about missing starters: generate creates them and leaves every other file of the user's as it is. */
export function restoreStarters(generate: string): string {
  return `run ${generate} (it creates missing starters and never overwrites a file of yours)`;
}

/** `2 generated files are out of date, 1 file of yours is missing` (either part left out when none). */
export function outOfStep(stale: number, missing: number, one: string, many: string): string {
  return [
    ...(stale ? [`${stale} generated file${stale === 1 ? ` ${one}` : `s ${many}`}`] : []),
    ...(missing ? [`${missing} file${missing === 1 ? '' : 's'} of yours ${missing === 1 ? 'is' : 'are'} missing`] : []),
  ].join(', ');
}
