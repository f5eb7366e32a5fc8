/**
 * mcpgen as an MCP server: the tools a coding agent drives the new → edit → check loop with, each
 * with a JSON Schema input, an output schema for its structured result, and annotations saying
 * what it touches. Loaded only by `mcpgen mcp` (the SDK is not loaded by any other command).
 */
import { type CallToolResult, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { VERSION } from '../version.js';
import type { Project } from './project.js';
import {
  addEntryTool,
  addViewTool,
  asRefusal,
  checkTool,
  compareTool,
  explainTool,
  generateTool,
  renameEntryTool,
  validateTool,
} from './tools.js';

type Json = Record<string, unknown>;

const KIND = {
  type: 'string',
  enum: ['tool', 'resource', 'template', 'prompt'],
  description: 'tool (under tools:), resource (resources:), template (resourceTemplates:) or prompt (prompts:)',
};
const MANIFEST_ARG = {
  type: 'string',
  description:
    "the manifest's path, relative to the project folder (default: mcpgen.yaml or mcpgen.yml at its root); paths leaving the project are refused",
};
const nullable = (type: string) => ({ type: [type, 'null'] });

const DIAGNOSTIC = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'MCPG…: explain tells what it means' },
    severity: { type: 'string', enum: ['error', 'warning', 'info'] },
    message: { type: 'string' },
    file: { type: 'string', description: 'relative to the project folder' },
    line: { type: 'integer', description: '1-based' },
    column: { type: 'integer', description: '1-based, UTF-16 code units' },
    endLine: nullable('integer'),
    endColumn: nullable('integer'),
    path: { ...nullable('string'), description: 'JSON Pointer into the manifest data' },
    entry: { ...nullable('string'), description: 'the tool, resource, template or prompt concerned' },
    rule: { ...nullable('string'), description: 'the lint rule id of an MCPG3xx code' },
    hint: { ...nullable('string'), description: 'how to fix it, when known' },
  },
  required: ['code', 'severity', 'message', 'file', 'line', 'column', 'path', 'hint'],
};
const DIAGNOSTICS = { type: 'array', items: DIAGNOSTIC };
const CHANGE = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    action: { type: 'string', enum: ['create', 'update', 'remove', 'orphan'] },
    owner: { type: 'string', enum: ['generated', 'user'] },
  },
  required: ['path', 'action', 'owner'],
};
const STRINGS = { type: 'array', items: { type: 'string' } };

interface ToolSpec {
  title: string;
  description: string;
  input: Json;
  output: Json;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  run(args: Json, signal: AbortSignal): unknown;
}

function specs(project: Project): Record<string, ToolSpec> {
  return {
    validate: {
      title: 'Validate the manifest',
      description:
        'Checks mcpgen.yaml as `mcpgen validate` does (YAML syntax, the manifest schema, semantic checks, lint rules) and returns every diagnostic with its code, severity, message, file, line, column, JSON path and hint. Writes nothing. Use explain for what a code means.',
      input: { type: 'object', properties: { manifest: MANIFEST_ARG }, additionalProperties: false },
      output: {
        type: 'object',
        properties: {
          manifest: { type: 'string' },
          valid: { type: 'boolean', description: 'no errors (warnings allowed)' },
          errors: { type: 'integer' },
          warnings: { type: 'integer' },
          diagnostics: DIAGNOSTICS,
        },
        required: ['manifest', 'valid', 'errors', 'warnings', 'diagnostics'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (a) => validateTool(project, a as { manifest?: string }),
    },
    compare: {
      title: 'Compare the manifest with an earlier one',
      description:
        "Does what `mcpgen compare --base` does: lists every change of the interface clients see (tools' input and output schemas, scopes, resources, templates, prompts' arguments, transports) between the manifest as it is and `base` (a git revision such as origin/main or HEAD, or a manifest file in the project), each breaking for existing clients or compatible, with why and where. Writes nothing. Use it before committing a manifest change: breaking changes need a new major version, or keeping the old interface.",
      input: {
        type: 'object',
        properties: {
          base: {
            type: 'string',
            description: 'a git revision (origin/main, HEAD~1) or a manifest file in the project to compare against',
          },
          manifest: MANIFEST_ARG,
        },
        required: ['base'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          manifest: { type: 'string' },
          base: { type: 'string', description: 'what was compared against: the file, or <rev>:<path>' },
          breaking: { type: 'integer' },
          compatible: { type: 'integer' },
          changes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                kind: { type: 'string', description: 'tool, resource, template, prompt or transport' },
                entry: { type: 'string' },
                pointer: {
                  type: 'string',
                  description: 'JSON Pointer inside the entry, e.g. /inputSchema/properties/city',
                },
                change: { type: 'string' },
                severity: { type: 'string', enum: ['breaking', 'compatible'] },
                unclassified: {
                  type: 'boolean',
                  description: 'a change mcpgen cannot classify precisely, counted as breaking',
                },
                message: { type: 'string' },
                file: { type: 'string' },
                line: { type: 'integer' },
                column: { type: 'integer' },
              },
              required: ['kind', 'entry', 'pointer', 'change', 'severity', 'message', 'file', 'line', 'column'],
            },
          },
        },
        required: ['manifest', 'base', 'breaking', 'compatible', 'changes'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (a) => compareTool(project, a as { base: string; manifest?: string }),
    },
    explain: {
      title: 'Explain a diagnostic code',
      description:
        'What a diagnostic code (MCPG110, or a lint rule id such as missing-description) means, its category and severity, a bad → good example for lint rules, and how to fix it. Reads nothing of the project.',
      input: {
        type: 'object',
        properties: { code: { type: 'string', description: 'MCPG followed by three digits, or a lint rule id' } },
        required: ['code'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          category: { type: 'string' },
          severity: nullable('string'),
          summary: { type: 'string' },
          details: nullable('string'),
          rule: {
            type: ['object', 'null'],
            properties: { id: { type: 'string' }, default: { type: 'string' }, configure: { type: 'string' } },
          },
          example: nullable('string'),
          fix: { type: 'string' },
          docs: { type: 'string', description: "the code's documentation, at the release that reports it (a URL)" },
        },
        required: ['code', 'category', 'summary', 'fix', 'docs'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (a) => explainTool(a as { code: string }),
    },
    add_entry: {
      title: 'Add a manifest entry',
      description:
        "Adds a tool, resource, template or prompt to the manifest, keeping the file's comments and layout (the entry goes after the last one of its section). The result is validated first: when it would not validate, or the name exists, nothing is written and the error result carries the diagnostics. Run generate afterwards.",
      input: {
        type: 'object',
        properties: {
          kind: KIND,
          name: { type: 'string', description: 'the key under the section, e.g. get_forecast' },
          definition: {
            type: 'object',
            description:
              'the entry as its YAML would be, in JSON: for a tool e.g. {"description": "…", "input": {"type": "object", "properties": {…}, "required": […]}, "output": {…}, "annotations": {"readOnlyHint": true}}',
          },
          manifest: MANIFEST_ARG,
        },
        required: ['kind', 'name', 'definition'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          manifest: { type: 'string' },
          kind: { type: 'string' },
          name: { type: 'string' },
          section: { type: 'string' },
          line: { type: 'integer', description: "where the entry's key is now" },
          layout: {
            type: 'string',
            enum: ['inserted', 'reprinted'],
            description:
              'inserted: the rest of the file kept byte for byte; reprinted: a flow-style section made the whole file reprinted (comments kept)',
          },
          warnings: DIAGNOSTICS,
          next: { type: 'string' },
        },
        required: ['manifest', 'kind', 'name', 'section', 'line', 'layout', 'warnings'],
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (a) => addEntryTool(project, a as { kind: string; name: string; definition: unknown; manifest?: string }),
    },
    add_view: {
      title: 'Give a tool a view (MCP Apps)',
      description:
        "Does what `mcpgen add view` does: the manifest gets a `<tool>_view` resource (ui://<server>/<tool>, built from ./ui/<tool>) and the tool's `ui.resource`, inserted with the file's comments and layout kept; ui/<tool>/ gets a starter index.html and main.ts using the extension's `App` (files already there are kept). The result is validated first: a tool that does not exist, already has a view, or a manifest with errors is refused with nothing written. Run generate afterwards, then `npm run build` in the project.",
      input: {
        type: 'object',
        properties: {
          tool: { type: 'string', description: 'the tool (its key under tools:) that gets the view' },
          manifest: MANIFEST_ARG,
        },
        required: ['tool'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          manifest: { type: 'string' },
          tool: { type: 'string' },
          resource: { type: 'string', description: "the view's resource, under resources:" },
          uri: { type: 'string' },
          folder: { type: 'string', description: "the view's folder, relative to the manifest" },
          created: { type: 'array', items: { type: 'string' } },
          kept: {
            type: 'array',
            items: { type: 'string' },
            description: 'starter files already there, left as they were',
          },
          next: { type: 'string' },
        },
        required: ['manifest', 'tool', 'resource', 'uri', 'folder', 'created', 'kept', 'next'],
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (a) => addViewTool(project, a as { tool: string; manifest?: string }),
    },
    rename_entry: {
      title: 'Rename a manifest entry',
      description:
        'Renames a tool, resource, template or prompt as `mcpgen rename` does: the key edited in place, its handler (and test stub) moved and re-pointed, then the project generated. Without apply: true it only returns the changes it would make. Refused (nothing changed) for an unknown entry, a name that exists or a manifest with errors.',
      input: {
        type: 'object',
        properties: {
          kind: KIND,
          old: { type: 'string', description: 'the current name' },
          new: { type: 'string', description: 'the new name' },
          apply: { type: 'boolean', default: false, description: 'make the changes (default: a dry run)' },
          manifest: MANIFEST_ARG,
        },
        required: ['kind', 'old', 'new'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          kind: { type: 'string' },
          old: { type: 'string' },
          new: { type: 'string' },
          applied: { type: 'boolean' },
          changes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                action: { type: 'string', enum: ['edit', 'move', 'generate'] },
                file: { type: 'string' },
                to: { type: 'string' },
                line: { type: 'integer' },
                before: { type: 'string' },
                after: { type: 'string' },
              },
              required: ['action', 'file'],
            },
          },
          output: STRINGS,
          next: { type: 'string' },
        },
        required: ['kind', 'old', 'new', 'applied', 'changes'],
      },
      // Renaming back restores the project; a second identical call is refused, not repeated.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (a) => renameEntryTool(project, a as { kind: string; old: string; new: string; apply?: boolean }),
    },
    generate: {
      title: 'Generate the project',
      description:
        'Validates the manifest, then writes the project as `mcpgen generate` does: generated files in src/generated/ and test/generated/ rewritten when changed, missing handler stubs created (never overwriting your handlers), stale generated files removed. check: true only reports generated files out of date; dryRun: true only lists what would change. Returns the changes, the warnings and messages naming the tool call to make next (rename_entry for a rename done by hand, check after a contract change). A manifest with errors, or a project that cannot be generated, is refused (an error result with the diagnostics; nothing written).',
      input: {
        type: 'object',
        properties: {
          check: { type: 'boolean', default: false, description: 'report out-of-date generated files, write nothing' },
          dryRun: { type: 'boolean', default: false, description: 'list what would change, write nothing' },
          manifest: MANIFEST_ARG,
        },
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          manifest: { type: 'string' },
          mode: { type: 'string', enum: ['write', 'check', 'dryRun'] },
          ok: { type: 'boolean', description: 'for check: up to date; else true (errors are refused)' },
          written: { type: 'boolean' },
          upToDate: { type: 'boolean', description: 'generated code matches the manifest (after writing, for write)' },
          changes: { type: 'array', items: CHANGE },
          diagnostics: DIAGNOSTICS,
          messages: {
            ...STRINGS,
            description:
              'what generate reported besides files, each naming what to do: orphans (delete, or the rename_entry call), contract changes (then check), packages to install',
          },
        },
        required: ['manifest', 'mode', 'ok', 'written', 'upToDate', 'changes', 'diagnostics', 'messages'],
      },
      // Writes only mcpgen's generated files and missing stubs; a second run changes nothing.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (a) => generateTool(project, a as { check?: boolean; dryRun?: boolean; manifest?: string }),
    },
    check: {
      title: 'Check the project (am I done?)',
      description:
        'Validates the manifest, checks the generated code is up to date (generate --check) and type-checks the project with its own TypeScript (tsc --noEmit -p tsconfig.json, when typescript is installed); lists handlers that still throw NotImplementedError (a handler no entry uses any more is reported once, as an orphan to delete or carry over with rename_entry). A type error finding carries the whole message tsc gives, its indented lines included. Returns passed (no failing step), done (passed and every handler implemented), a one-line summary and the findings with file, line and column. Writes nothing.',
      input: { type: 'object', properties: { manifest: MANIFEST_ARG }, additionalProperties: false },
      output: {
        type: 'object',
        properties: {
          passed: { type: 'boolean' },
          done: { type: 'boolean' },
          summary: { type: 'string' },
          steps: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string', enum: ['validate', 'generate', 'typecheck'] },
                status: { type: 'string', enum: ['passed', 'failed', 'skipped'] },
                detail: { type: 'string' },
              },
              required: ['name', 'status', 'detail'],
            },
          },
          findings: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                step: { type: 'string', enum: ['validate', 'generate', 'typecheck', 'handlers'] },
                severity: { type: 'string', enum: ['error', 'warning', 'info'] },
                message: { type: 'string' },
                file: nullable('string'),
                line: nullable('integer'),
                column: nullable('integer'),
                code: nullable('string'),
              },
              required: ['step', 'severity', 'message', 'file', 'line', 'column', 'code'],
            },
          },
        },
        required: ['passed', 'done', 'summary', 'steps', 'findings'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (a, signal) => checkTool(project, a as { manifest?: string }, signal),
    },
  };
}

/** The tool specifications, for tests and documentation. */
export function toolSpecs(project: Project): Readonly<Record<string, Omit<ToolSpec, 'run'>>> {
  return specs(project);
}

export function createServer(project: Project): McpServer {
  const server = new McpServer(
    { name: 'mcpgen', version: VERSION, title: 'mcpgen' },
    {
      instructions: `Drives an mcpgen project (${project.root}): edit its manifest with add_entry and rename_entry, then validate (explain a code you do not know), generate, write the handlers in src/handlers/, and check until it passes.`,
    },
  );
  for (const [name, spec] of Object.entries(specs(project))) {
    server.registerTool(
      name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: fromJsonSchema<Json>(spec.input as never),
        outputSchema: fromJsonSchema<Json>(spec.output as never),
        annotations: { title: spec.title, ...spec.annotations },
      },
      async (args: Json, ctx: { mcpReq?: { signal?: AbortSignal } }) =>
        answer(() => spec.run(args ?? {}, signalOf(ctx))),
    );
  }
  return server;
}

function signalOf(ctx: { mcpReq?: { signal?: AbortSignal } }): AbortSignal {
  return ctx?.mcpReq?.signal ?? new AbortController().signal;
}

/** The result as structured content and JSON text; a refusal, an environment error or a bug as an isError result. */
async function answer(run: () => unknown): Promise<CallToolResult> {
  try {
    const data = (await run()) as Json;
    return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
  } catch (err) {
    const refusal = asRefusal(err);
    if (refusal) {
      const details = refusal.details ? `\n${JSON.stringify(refusal.details, null, 2)}` : '';
      return { isError: true, content: [{ type: 'text', text: `${refusal.message}${details}` }] };
    }
    const e = err as NodeJS.ErrnoException;
    // The machine refused something (permissions, a full disk): the agent can act on it; not a bug.
    const env =
      typeof e?.code === 'string' && e.syscall
        ? `cannot ${e.syscall}${e.path ? ` ${e.path}` : ''}: ${e.message}`
        : null;
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text:
            env ?? `internal error in mcpgen: ${e?.message ?? String(err)}; this is a bug in mcpgen, please report it`,
        },
      ],
    };
  }
}
