/**
 * One line per diagnostic code, for SARIF `rules[].shortDescription` (the table of
 * docs/manifest-diagnostics.md; test/report.test.ts checks every code has one). Lint rules carry
 * their own description (cli/lint/rules).
 */
export const CODE_DESCRIPTIONS: Record<string, string> = {
  MCPG900: 'the manifest file does not exist',
  MCPG901: 'the path is a directory, not a manifest file',
  MCPG902: 'the file cannot be read (permissions, or not a regular file)',
  MCPG903: 'the file is larger than 10 MiB',
  MCPG910:
    'generate would overwrite or delete a file mcpgen does not own (no header in a generated folder), or write outside the project folder',
  MCPG911:
    'a project file or folder could not be written, replaced or removed (permissions, immutable file or folder, read-only or full disk); nothing was changed',
  MCPG912:
    'an earlier generate was interrupted while switching files: `mcpgen generate` finishes it; `--check`, `--dry-run` and `diff` report it and read nothing',
  MCPG913:
    'another mcpgen generate is writing the project (its staging folder `.mcpgen-staging/` belongs to a running process: the same PID and start time)',
  MCPG914:
    'an interrupted generate could not be finished (an I/O error); its journal is kept and the next generate tries again',
  MCPG915:
    'a failed write could not be undone (an I/O error); its journal is kept and the next generate finishes the switch',
  MCPG916:
    "a recovery journal in `.mcpgen-staging/` is not replayed: this project's interrupted generate did not write it, or it would go through a symlink, touch a user-owned file or the manifest; nothing was written, the folder is kept to inspect, then delete",
  MCPG920:
    '`options.format: prettier` (or `--format prettier`) could not run: prettier is not installed in the project, its configuration is invalid, or it refused a generated file; nothing was written',
  MCPG100: 'not UTF-8 text: invalid UTF-8, UTF-16, or binary (NUL bytes)',
  MCPG101: 'YAML syntax error; more than one document; alias without anchor, or inside its own anchor; bad `<<` merge',
  MCPG102: 'YAML warning from the parser',
  MCPG103: 'duplicate key in a mapping (names the line of the first)',
  MCPG104: 'custom or non-core tag (`!include`, `!!binary`, …)',
  MCPG105: 'the manifest is empty',
  MCPG106: 'the top level is not a mapping',
  MCPG107: 'aliases expand to too many nodes (alias bomb)',
  MCPG108: 'a mapping key that is a list, a mapping or empty',
  MCPG109: 'mappings and lists nested deeper than 64 levels',
  MCPG110: 'unknown key (with "did you mean" when one is close)',
  MCPG111: 'wrong type ("expected a string, got the number 1.0")',
  MCPG112: 'missing required key, or none of the keys of which exactly one is needed',
  MCPG113: 'value not among the allowed ones',
  MCPG114: 'string does not match its pattern or format, or has the wrong length',
  MCPG115: 'number out of range',
  MCPG116: 'a name (tool, resource, schema, argument, template variable, `meta` key) breaks its naming rule',
  MCPG117: 'more than one of keys that exclude each other (`text` and `image` in one message)',
  MCPG118: 'list constraint: empty, or an item listed twice',
  MCPG119: 'any other schema violation',
  MCPG200: '`$ref` to a schema or definition that does not exist',
  MCPG201:
    '`$ref` form not allowed: remote, anchors, into a shared schema; `#/schemas/<Name>` and any local JSON Pointer are allowed',
  MCPG202: '`$ref` cycle that never reaches a schema (`A → B → A`); recursion through `properties`/`items` is fine',
  MCPG203:
    'embedded schema is not valid JSON Schema 2020-12 (meta-schema, regular expressions, `$schema` of another dialect)',
  MCPG204: 'tool `input`/`output` root does not describe an object',
  MCPG206: 'unknown `format`: nothing will check it',
  MCPG207:
    'a shared schema refers to itself: it cannot be inlined, so schemas that use it advertise it under `$defs` with a `$ref`',
  MCPG208:
    "a schema's `default`, an entry of its `examples`, an `enum` member or its `const` is not valid against that schema",
  MCPG209:
    'an advertised schema nests deeper than 256 levels or holds more than 100,000 values once its shared schemas are inlined',
  MCPG210: 'resource URI is not a valid absolute URI',
  MCPG211: 'two resources with the same URI, or two templates with the same URI template',
  MCPG212: 'resource has both `text` and `file`',
  MCPG213: '`encoding` on a resource without `file` has no effect',
  MCPG214: 'a schema property, prompt argument or template variable named `__proto__`, which the MCP SDK drops',
  MCPG220: 'invalid RFC 6570 URI template, or not absolute',
  MCPG221: '`params`/`complete` key that is not a variable of the template',
  MCPG222: 'template variable without a `params` schema',
  MCPG223: 'template variable schema that is not `type: string` (or `array` for `{var*}`)',
  MCPG224: 'template variable whose schema no sample value matches: the contract test cannot read the template',
  MCPG230: '`{{placeholder}}` in a prompt message (text or embedded resource text) names no argument',
  MCPG231: 'required prompt argument with a `default`',
  MCPG232: 'inline `data` or `blob` of a prompt message that is not base64',
  MCPG240: '`file:` does not exist (or is a dangling symlink)',
  MCPG241: '`file:` is a directory',
  MCPG242: "`file:` is absolute or outside the manifest's folder (symlinks resolved)",
  MCPG243: '`file:` cannot be read, or is not a regular file',
  MCPG244: '`encoding: text` on a file that is not UTF-8',
  MCPG245: '`file:` larger than 4 MiB, too large to embed in generated code',
  MCPG246: 'embedded files and inline content together larger than 16 MiB',
  MCPG247: 'one inline string over its cap: embedded content over 4 MiB, any other text over 256 KiB',
  MCPG250: 'tool annotated both `readOnlyHint: true` and `destructiveHint: true`',
  MCPG251:
    'tool with `output` whose `content` kinds leave out `text` (a structured result also goes out as a JSON text block)',
  MCPG252: '`execution.ttlMs`, `pollIntervalMs` or `inputBeforeTask` on a tool whose `taskSupport` is `forbidden`',
  MCPG260: 'both transports disabled',
  MCPG261: 'scopes that no authentication checks',
  MCPG262: 'OAuth URL not https, or with a fragment or query',
  MCPG263: 'auth setting without effect',
  MCPG264: 'two HTTP endpoints (the MCP path, the HTTP+SSE paths, /health) on the same path',
  MCPG270:
    'two names that become the same identifier, type name or handler file (`get-sum` and `get_sum`; `Notes` and `notes`)',
  MCPG280: "a tool's `ui.resource` naming no resource, or a resource whose URI is not `ui://`",
  MCPG281: 'a resource with `ui` (a view) whose URI does not start with `ui://`',
  MCPG282: 'a view whose `mimeType` is not `text/html;profile=mcp-app`',
  MCPG283: "a view's `ui.csp` entry that is not an origin, or a `ui.domain` that is not a host name",
  MCPG284: '`meta.ui` beside `ui` on a tool or a view',
  MCPG285: '`build` on a resource that is not a view, or beside `text` or `file`',
  MCPG286: "a view's `build` folder that is missing, outside the manifest's folder, or has no index.html",
  MCPG287: "a built view's sources that esbuild cannot bundle",
  MCPG288: "the server's code that esbuild cannot bundle",
  MCPG290: "a tool's `http.api` names no entry of `apis`, or names none where `apis` has none or several",
  MCPG291: '`http.path`, `query`, `headers` or `body` names something that is not an input property',
  MCPG292: 'one input property placed twice in path, query, headers and body',
  MCPG293: '`http.body` on a GET',
  MCPG294: '`http.path` that is not a path template (`?`, `#`, an unbalanced brace)',
  MCPG295: 'an environment variable name under `apis` that is not one',
  MCPG296: '`baseUrl.default` that is not an absolute http(s) URL without query or fragment',
  MCPG297: '`apis.<name>.auth` without a key its type needs, or with one of another type',
  MCPG298: 'a path placeholder whose input property is not required',
};
