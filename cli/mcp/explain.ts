/**
 * What a diagnostic code means and how to fix it, for the `explain` tool: the one-line description
 * (report/code-descriptions.ts, or the lint rule's), the full entry of docs/manifest-diagnostics.md
 * (shipped in the package, read when asked), a lint rule's bad → good example, and how to fix it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ruleByCode, ruleById } from '../lint/registry.js';
import { Codes } from '../manifest/codes.js';
import { PACKAGE_ROOT } from '../paths.js';
import { CODE_DESCRIPTIONS } from '../report/code-descriptions.js';
import { helpUri } from '../report/help-uri.js';
import { suggest } from '../validate/suggest.js';
import { ToolRefusal } from './project.js';

export interface Explanation {
  code: string;
  /** The family: I/O, YAML, schema, semantic or lint. */
  category: string;
  /** error / warning for codes with a fixed severity; a lint rule's default setting (off, warn, error). */
  severity: string | null;
  summary: string;
  /** The documentation's full wording, when it says more than the summary. */
  details: string | null;
  rule: { id: string; default: string; configure: string } | null;
  /** A lint rule's failing example and its fix, one line: `bad → good`. */
  example: string | null;
  fix: string;
  docs: string;
}

const DOCS = path.join(PACKAGE_ROOT, 'docs', 'manifest-diagnostics.md');

/** How to fix the codes an agent meets most; the others get their family's advice. */
const FIXES: Record<string, string> = {
  MCPG900:
    "pass the path of an existing manifest (the tools' `manifest` argument), or ask the user to create a project with `npx mcpgen init` (no tool creates one)",
  MCPG101:
    'fix the YAML at the position given: indentation (spaces, one column per mapping), quotes and brackets closed, `key: value` with a space after the colon',
  MCPG103: 'remove one of the two keys, or merge their contents into one',
  MCPG110:
    'remove the key or rename it to the one the hint suggests; every allowed key is in docs/manifest-reference.md',
  MCPG111: 'write the value with the type the message names (quote a string that looks like a number or boolean)',
  MCPG112: 'add the missing key the message names',
  MCPG113: 'use one of the allowed values listed in the message',
  MCPG114: 'change the string to match the pattern, format or length the message gives',
  MCPG115: 'bring the number within the range the message gives',
  MCPG116: 'rename the entry to match its naming rule (for tools: letters, digits, `_` and `-`, at most 64 characters)',
  MCPG200:
    'point the `$ref` at a schema that exists (`#/schemas/<Name>` under the top-level `schemas:`), or add that schema',
  MCPG201: 'use `#/schemas/<Name>` or a local JSON Pointer (`#/$defs/…`) instead',
  MCPG204: "make the tool's `input` / `output` root `type: object` with `properties`",
  MCPG206: 'use a known `format` (date, date-time, email, uri, uuid, …) or drop it',
  MCPG208: 'make the `default`, `examples`, `enum` or `const` value valid against its own schema',
  MCPG210: 'write an absolute URI with a scheme: `docs://readme`, `notes://recent`',
  MCPG211: 'give each resource (or template) its own URI',
  MCPG220: 'write an absolute RFC 6570 template with `{variables}`: `notes://note/{id}`',
  MCPG221: 'name only variables that appear in the URI template, or add the variable to the template',
  MCPG222: 'declare the variable under `params` with a schema (`{ type: string }`)',
  MCPG230: 'declare the placeholder as a prompt argument, or fix its spelling',
  MCPG240: "create the file, or fix the `file:` path (relative to the manifest's folder)",
  MCPG242: "move the file inside the manifest's folder and reference it by a relative path",
  MCPG250: 'a read-only tool cannot be destructive: drop one of the two hints',
  MCPG270: 'rename one of the two entries so their derived names (identifier, type, handler file) differ',
  MCPG910:
    'a file in src/generated/ or test/generated/ lacks the mcpgen header: move your file elsewhere, or delete it if it was generated',
  MCPG911: 'make the named path writable (permissions, a read-only mount), then call the generate tool again',
  MCPG912: 'call the generate tool (without check or dryRun): it finishes the interrupted switch',
  MCPG913: 'wait for the other generate to finish, then call the tool again',
  MCPG916: 'inspect `.mcpgen-staging/`, then delete it; nothing was changed',
  MCPG920:
    'install prettier in the project (`npm install --save-dev prettier`), fix its configuration, or drop `options.format: prettier`',
};

const FAMILY_FIXES: Record<string, string> = {
  'I/O': 'check the file or folder the message names (it exists, is readable, is writable)',
  YAML: 'fix the YAML at the position given; the manifest is one YAML document of mappings and lists',
  Schema:
    'change the value at the path given to what schemas/manifest.v1.json allows (docs/manifest-reference.md lists every key)',
  Semantic: 'change the manifest at the position given as the message and hint say',
  Lint: 'follow the example, or configure the rule (`lint: { rules: { <id>: off } }` in the manifest)',
};

export function explainCode(input: string): Explanation {
  const asked = input.trim();
  const rule = ruleById(asked) ?? ruleByCode(asked.toUpperCase());
  const code = rule?.code ?? asked.toUpperCase();
  const known = new Set<string>([...Object.values(Codes), ...Object.keys(CODE_DESCRIPTIONS)]);
  if (!rule && !known.has(code)) {
    const all = [...known].sort();
    const close = suggest(code, all);
    throw new ToolRefusal(
      `unknown diagnostic code "${asked}"${close ? `; did you mean ${close}?` : ''} (codes are MCPG followed by three digits, e.g. MCPG110, or a lint rule id such as missing-description; docs/manifest-diagnostics.md lists them all)`,
    );
  }
  const doc = docEntry(code);
  const summary = rule?.description ?? CODE_DESCRIPTIONS[code] ?? doc?.meaning ?? code;
  const category = doc?.category ?? familyOf(code);
  const example = rule ? exampleOf(rule.id) : null;
  return {
    code,
    category,
    severity: rule ? rule.default : (doc?.severity ?? (code.startsWith('MCPG3') ? 'warning' : 'error')),
    summary,
    details: doc && doc.meaning !== summary ? doc.meaning : null,
    rule: rule
      ? {
          id: rule.id,
          default: rule.default,
          configure: `lint: { rules: { ${rule.id}: off|warn|error } } in the manifest, or mcpgen validate --rule ${rule.id}=off|warn|error`,
        }
      : null,
    example,
    fix:
      FIXES[code] ?? (example ? `as in the example: ${example}` : (FAMILY_FIXES[category] ?? FAMILY_FIXES.Semantic!)),
    docs: helpUri(code) ?? `${pathToFileURL(DOCS).href}#${code.toLowerCase()}`,
  };
}

function familyOf(code: string): string {
  if (code.startsWith('MCPG9')) return 'I/O';
  if (code.startsWith('MCPG10')) return 'YAML';
  if (code.startsWith('MCPG1')) return 'Schema';
  if (code.startsWith('MCPG2')) return 'Semantic';
  return 'Lint';
}

interface DocEntry {
  category: string;
  severity?: string;
  meaning: string;
}

let docText: string | null | undefined;

/** The code's row in docs/manifest-diagnostics.md: its section, severity column (if any) and meaning. */
function docEntry(code: string): DocEntry | undefined {
  const text = readDocs();
  if (!text) return undefined;
  let category = familyOf(code);
  for (const line of text.split('\n')) {
    const heading = /^## (I\/O|YAML|Schema|Semantic|Lint)\b/.exec(line);
    if (heading) category = heading[1]!;
    if (!line.startsWith(`| ${code} |`)) continue;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    const meaning = cells[cells.length - 1]!.replace(/<a name="[^"]*"><\/a>/g, '').replace(/\\\|/g, '|');
    const severity = cells.length === 3 && /^(error|warning)$/.test(cells[1]!) ? cells[1] : undefined;
    return { category, meaning, ...(severity ? { severity } : {}) };
  }
  return undefined;
}

/** The rule's line of the bad → good block: `bad → good` without the trailing `# id`. */
function exampleOf(id: string): string | null {
  const text = readDocs();
  if (!text) return null;
  const line = text.split('\n').find((l) => l.includes('→') && new RegExp(`#\\s*${id}\\s*$`).test(l));
  return line
    ? line
        .replace(/#\s*[\w-]+\s*$/, '')
        .replace(/\s{2,}/g, ' ')
        .trim()
    : null;
}

function readDocs(): string | null {
  if (docText === undefined) {
    try {
      docText = readFileSync(DOCS, 'utf8');
    } catch {
      docText = null;
    }
  }
  return docText;
}
