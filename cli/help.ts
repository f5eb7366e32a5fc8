/**
 * What `mcpgen <command> --help` shows after the options: examples to copy, and where the command
 * is documented (docs/cli.md, shipped in mcpgen's package, so the path works offline).
 */
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  init: [
    'mcpgen init weather            # a new project in ./weather',
    'mcpgen init --name acme-notes   # here, named acme-notes',
  ],
  validate: [
    'mcpgen validate                         # mcpgen.yaml here or above',
    'mcpgen validate --format github         # annotations in a GitHub Actions run',
    'mcpgen validate --rule max-tools=error  # a lint rule set for this run',
    'mcpgen validate --json                  # one JSON document for a script or an agent',
  ],
  generate: [
    'mcpgen generate                 # write the project next to mcpgen.yaml',
    'mcpgen generate --check         # CI: exit 1 when generated files are out of date',
    'mcpgen generate --dry-run       # print the plan, write nothing',
    'mcpgen generate --format prettier',
    'mcpgen generate --check --json  # the result as one JSON document (ok, changes, next steps)',
  ],
  diff: ['mcpgen diff                     # what generate would change, as a unified diff'],
  compare: [
    'mcpgen compare --base origin/main                  # does this branch break existing clients?',
    'mcpgen compare --base HEAD~1 --format json         # the changes as a JSON array',
    'mcpgen compare --base origin/${{ github.base_ref }} --format github   # annotations in a pull request',
    'mcpgen compare --base old/mcpgen.yaml --allow-breaking               # list them, exit 0',
  ],
  watch: ['mcpgen watch -f api/mcpgen.yaml'],
  dev: [
    'npm run dev                     # in a generated project: mcpgen dev',
    'mcpgen dev --port 0             # any free port, kept across restarts',
  ],
  pack: ['mcpgen pack --build             # build, then bundle dist/ and write server.json'],
  build: [
    'npm run build                   # in a project with views built from a folder: mcpgen build',
    'mcpgen build --json             # the views built, as one JSON document',
  ],
  add: [
    'mcpgen add tool get_forecast -d "Gets the forecast for a city" -i city:string:"The city"',
    'mcpgen add resource readme --uri notes://readme --text "How to use the notes"',
    "mcpgen add template note --uri-template 'notes://{id}' -d 'A note by its id'",
    'mcpgen add prompt summarize -a topic:"What to summarize" --text "Summarize {{topic}}"',
    'mcpgen add view get_forecast    # a view for get_forecast: ui/get_forecast/, linked in mcpgen.yaml',
  ],
  'add tool': [
    'mcpgen add tool get_forecast -d "Gets the forecast for a city"',
    "mcpgen add tool get_forecast -i city:string:'The city' -i 'days?:integer:Days ahead, 1 if left out' --read-only",
    'mcpgen add tool get_forecast --json   # the result as one JSON document',
  ],
  'add resource': [
    'mcpgen add resource readme --uri notes://readme --text "How to use the notes"   # static',
    'mcpgen add resource stats --uri notes://stats --mime-type application/json      # read by a handler',
  ],
  'add template': ["mcpgen add template note --uri-template 'notes://{id}' -d 'A note by its id'"],
  'add prompt': [
    'mcpgen add prompt summarize -a topic:"What to summarize" --text "Summarize {{topic}}"   # declarative',
    "mcpgen add prompt review -a 'focus?:What to look at first'                            # served by a handler",
  ],
  'add view': ['mcpgen add view get_forecast    # a view for get_forecast: ui/get_forecast/, linked in mcpgen.yaml'],
  rename: [
    'mcpgen rename tool get_weather get_forecast        # print what would change',
    'mcpgen rename tool get_weather get_forecast --yes  # do it',
  ],
  import: [
    'mcpgen import openapi openapi.yaml                  # a tool per operation into ./mcpgen.yaml',
    'mcpgen import openapi api.json --tag pets --dry-run # only the pets operations; print, write nothing',
    "mcpgen import openapi api.json --path '/repos/*/*/issues' --rename prefix:gh_",
    'mcpgen import openapi openapi.yaml -f server/mcpgen.yaml --api billing',
    'mcpgen import openapi openapi.yaml                  # again after the API changed: updates, keeps your edits',
  ],
  schema: ['mcpgen schema > mcpgen.schema.json'],
  mcp: [
    'mcpgen mcp                      # mcpgen as an MCP server over stdio, for a coding agent',
    'claude mcp add mcpgen -- npx mcpgen mcp',
  ],
  completion: [
    'mcpgen completion bash >> ~/.bashrc',
    'mcpgen completion zsh > "${fpath[1]}/_mcpgen"',
    'mcpgen completion fish > ~/.config/fish/completions/mcpgen.fish',
  ],
};

/** The help text after a command's options: its examples and its documentation. */
export function helpAfter(command: string): string {
  const examples = EXAMPLES[command] ?? [];
  const docs = path.join(PACKAGE_ROOT, 'docs', 'cli.md');
  return [
    '',
    ...(examples.length ? ['Examples:', ...examples.map((e) => `  $ ${e}`), ''] : []),
    `Documentation: ${docs} (also https://github.com/mcpgen/mcpgen/blob/main/docs/cli.md)`,
  ].join('\n');
}
