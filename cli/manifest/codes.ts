/**
 * Diagnostic codes of the manifest front-end (load, schema, semantic checks). Codes are stable:
 * users grep for them and CI configs may filter on them, so never renumber; retire instead.
 * Ranges (cli/diagnostics.ts): MCPG1xx YAML and schema, MCPG2xx semantic, MCPG3xx lint, MCPG9xx I/O.
 */
export const Codes = {
  // I/O: the manifest file itself could not be read.
  FILE_NOT_FOUND: 'MCPG900',
  FILE_IS_DIRECTORY: 'MCPG901',
  FILE_UNREADABLE: 'MCPG902',
  FILE_TOO_LARGE: 'MCPG903',

  // YAML level.
  NOT_UTF8: 'MCPG100', // invalid UTF-8, UTF-16/32, or binary (NUL bytes)
  YAML_SYNTAX: 'MCPG101',
  YAML_WARNING: 'MCPG102',
  DUPLICATE_KEY: 'MCPG103',
  CUSTOM_TAG: 'MCPG104',
  EMPTY_MANIFEST: 'MCPG105',
  NOT_A_MAPPING: 'MCPG106',
  ALIAS_LIMIT: 'MCPG107',
  COMPLEX_KEY: 'MCPG108', // a map key that is a list, a mapping or null
  NESTING_TOO_DEEP: 'MCPG109', // mappings and lists nested deeper than MAX_NESTING (cli/load/nesting.ts)

  // Schema (schemas/manifest.v1.json).
  UNKNOWN_KEY: 'MCPG110',
  WRONG_TYPE: 'MCPG111',
  MISSING_KEY: 'MCPG112',
  NOT_ALLOWED_VALUE: 'MCPG113', // enum / const
  BAD_STRING: 'MCPG114', // pattern, format, length
  OUT_OF_RANGE: 'MCPG115',
  BAD_NAME: 'MCPG116', // a map key (tool name, schema name…) that breaks its naming rule
  EXCLUSIVE_KEYS: 'MCPG117', // exactly one of several keys (prompt message content, data|file…)
  BAD_LIST: 'MCPG118', // minItems, uniqueItems
  SCHEMA_OTHER: 'MCPG119',

  // Semantic: embedded JSON Schemas.
  REF_UNRESOLVED: 'MCPG200',
  REF_NOT_ALLOWED: 'MCPG201', // remote or otherwise unsupported $ref
  REF_CYCLE: 'MCPG202',
  INVALID_JSON_SCHEMA: 'MCPG203',
  ROOT_NOT_OBJECT: 'MCPG204',
  UNKNOWN_FORMAT: 'MCPG206',
  RECURSIVE_SCHEMA: 'MCPG207', // warning: a recursive shared schema cannot be inlined, it stays under `$defs`
  INVALID_DEFAULT: 'MCPG208', // warning: a `default` its own schema rejects
  INLINED_TOO_LARGE: 'MCPG209', // an advertised schema too deep or too large once shared schemas are inlined
  KEY_DROPPED: 'MCPG214', // a property, prompt argument or template variable named `__proto__`: the SDK drops the key

  // Semantic: resources and templates.
  BAD_RESOURCE_URI: 'MCPG210',
  DUPLICATE_URI: 'MCPG211',
  TEXT_AND_FILE: 'MCPG212',
  ENCODING_WITHOUT_FILE: 'MCPG213',
  BAD_URI_TEMPLATE: 'MCPG220',
  NOT_A_TEMPLATE_VARIABLE: 'MCPG221',
  VARIABLE_WITHOUT_PARAM: 'MCPG222',
  PARAM_NOT_STRING: 'MCPG223',
  TEMPLATE_WITHOUT_SAMPLE: 'MCPG224', // warning: no sample value of a variable fits its schema, so the contract test does not read the template

  // Semantic: prompts.
  UNKNOWN_PLACEHOLDER: 'MCPG230',
  REQUIRED_WITH_DEFAULT: 'MCPG231',
  NOT_BASE64: 'MCPG232', // inline `data`/`blob` of a prompt message that is not base64

  // Semantic: files referenced with `file:`.
  REF_FILE_MISSING: 'MCPG240',
  REF_FILE_IS_DIRECTORY: 'MCPG241',
  REF_FILE_OUTSIDE: 'MCPG242',
  REF_FILE_UNREADABLE: 'MCPG243',
  REF_FILE_NOT_TEXT: 'MCPG244',
  EMBED_FILE_TOO_LARGE: 'MCPG245', // one `file:` larger than MAX_EMBEDDED_FILE_BYTES (cli/validate/checks/files.ts)
  EMBED_TOTAL_TOO_LARGE: 'MCPG246', // embedded files and inline content together over MAX_EMBEDDED_TOTAL_BYTES
  TEXT_TOO_LARGE: 'MCPG247', // one inline string over its cap: content as a `file:` is capped, text the server only shows (descriptions…) far lower

  // Semantic: everything else.
  CONTRADICTORY_HINTS: 'MCPG250',
  CONTENT_WITHOUT_TEXT: 'MCPG251', // warning: a tool with `output` whose `content` kinds leave out `text`
  TASK_OPTIONS_WITHOUT_TASK: 'MCPG252', // warning: `execution` task settings on a tool that never runs as a task
  NO_TRANSPORT: 'MCPG260',
  SCOPES_WITHOUT_AUTH: 'MCPG261', // warning: per-entry scopes where no HTTP authentication checks them
  BAD_AUTH_URL: 'MCPG262', // an OAuth URL that is not https (but on loopback), or has a fragment or query it must not
  AUTH_WITHOUT_EFFECT: 'MCPG263', // warning: an auth setting that changes nothing, or advertises less than requests need
  HTTP_PATH_COLLISION: 'MCPG264', // two HTTP endpoints (MCP, HTTP+SSE stream and messages, /health) on one path
  NAME_COLLISION: 'MCPG270', // distinct names that become the same identifier, type or file name
  VIEW_NOT_FOUND: 'MCPG280', // a tool's `ui.resource` naming no resource, or one without a `ui://` URI
  VIEW_URI_NOT_UI: 'MCPG281', // a resource with `ui` (a view) whose URI is not `ui://…`
  VIEW_MIME_TYPE: 'MCPG282', // a view's `mimeType` other than text/html;profile=mcp-app
  VIEW_BAD_POLICY: 'MCPG283', // a view's CSP entry that is not an origin, or a `domain` that is not a host name
  VIEW_META_CONFLICT: 'MCPG284', // `meta.ui` beside `ui`, which writes `_meta.ui`
  VIEW_BUILD_NOT_VIEW: 'MCPG285', // `build` on a resource that is not a view, or beside `text`/`file`
  VIEW_BUILD_FOLDER: 'MCPG286', // a view's `build` folder that is missing, outside the manifest's folder, or has no index.html
  VIEW_BUILD_FAILED: 'MCPG287', // a built view's sources that esbuild cannot bundle (at their file:line:col)
  BUNDLE_FAILED: 'MCPG288', // `mcpgen build`: the server's code that esbuild cannot bundle (at its file:line:col)
  HTTP_UNKNOWN_API: 'MCPG290', // a tool's `http.api` names no entry of `apis`; or no `api` where `apis` has none or several
  HTTP_UNKNOWN_PROPERTY: 'MCPG291', // `http.path`, `query`, `headers` or `body` naming something that is not an input property
  HTTP_PLACED_TWICE: 'MCPG292', // one input property placed in two of path, query, headers and body
  HTTP_BODY_ON_GET: 'MCPG293', // `http.body` with method GET
  HTTP_BAD_PATH: 'MCPG294', // `http.path` with `?`, `#` or an unbalanced brace
  HTTP_BAD_ENV_NAME: 'MCPG295', // an `apis` environment variable name that is not one (letters, digits, `_`)
  HTTP_BAD_BASE_URL: 'MCPG296', // `baseUrl.default` that is not an absolute http(s) URL without query or fragment
  HTTP_AUTH_KEYS: 'MCPG297', // `apis.<name>.auth` missing a key its type needs, or with one of another type
  HTTP_OPTIONAL_PATH_PARAMETER: 'MCPG298', // warning: a path placeholder whose property is not required

  // Lint (cli/lint/rules): advice, warnings by default, configurable per rule id (cli/lint/registry.ts).
  LINT_NAME_FORMAT: 'MCPG300', // name-format
  LINT_MISSING_DESCRIPTION: 'MCPG301', // missing-description
  LINT_DESCRIPTION_LENGTH: 'MCPG302', // description-length
  LINT_OPTIONAL_WITHOUT_DEFAULT: 'MCPG303', // optional-without-default
  LINT_UNCONSTRAINED_INPUT: 'MCPG304', // unconstrained-input (off by default)
  LINT_URI_SCHEME_FORMAT: 'MCPG305', // uri-scheme-format
  LINT_MISSING_MIME_TYPE: 'MCPG306', // resource-mime-type
  LINT_TOO_MANY_TOOLS: 'MCPG307', // max-tools
  LINT_HTTPS_RESOURCE: 'MCPG308', // https-resource
  LINT_URI_PATH_FORMAT: 'MCPG309', // uri-path-format
  LINT_UNKNOWN_SCHEMA_KEY: 'MCPG310', // unknown-schema-keys
  LINT_REQUIRED_UNDEFINED: 'MCPG311', // required-defined
  LINT_VENDOR_KEYS: 'MCPG320', // vendor-keys

  // Output folder (plan stage).
  OUTPUT_CONFLICT: 'MCPG910', // a file mcpgen may not overwrite or delete, or a path leaving the project

  // Writing the project (cli/write): the environment refused; the project is left as it was.
  WRITE_FAILED: 'MCPG911', // a file or folder could not be written, replaced or removed (permissions, immutable, read-only or full disk…)
  WRITE_INTERRUPTED: 'MCPG912', // a generate was interrupted mid-switch: read-only commands report it, generate finishes it
  WRITE_BUSY: 'MCPG913', // another mcpgen generate is writing the project
  WRITE_RECOVERY_FAILED: 'MCPG914', // finishing an interrupted generate failed; its journal is kept for the next run
  WRITE_UNDO_FAILED: 'MCPG915', // a failed write could not be undone; its journal is kept for the next run to finish it
  WRITE_JOURNAL_REFUSED: 'MCPG916', // a recovery journal this project's interrupted generate did not write, or that would touch what mcpgen may not: not replayed

  // Formatting with the project's prettier (options.format: prettier).
  FORMAT_FAILED: 'MCPG920', // prettier is not installed in the project, its configuration is invalid, or it refused a file
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];
