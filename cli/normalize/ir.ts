/**
 * The intermediate representation between the manifest and the templates.
 * Every default is resolved here, every derived name computed once; templates never test for
 * undefined manifest fields and never see the raw manifest.
 */
export type JsonSchema = Record<string, unknown>;
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Where an entry was declared, so later stages can point back at the manifest. */
export interface SourceLoc {
  line: number;
  column: number;
}

export interface IconIR {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ServerIR {
  /** serverInfo.name: free text. */
  name: string;
  /** The generated project's npm package name: `package`, else the name (then npm-safe, as validate checks). */
  packageName: string;
  version: string;
  title: string | null;
  description: string | null;
  instructions: string | null;
  websiteUrl: string | null;
  icons: IconIR[];
}

export interface HttpIR {
  host: string;
  port: number;
  path: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** Static bearer tokens from this environment variable, or null. */
  bearer: { tokensEnv: string; requiredScopes: string[] } | null;
  /** OAuth 2.1 resource server (transports.http.auth.oauth), or null. */
  oauth: OAuthIR | null;
  /** The legacy 2024-11-05 HTTP+SSE endpoints, or null when turned off. */
  sse: { path: string; messagesPath: string } | null;
}

/** transports.http.auth.oauth with its defaults; null where the environment or the runtime decides. */
export interface OAuthIR {
  issuer: string | null;
  resource: string | null;
  audience: string[] | null;
  scopes: string[];
  /** As declared, or null: `scopes` and every per-entry scope. */
  scopesSupported: string[] | null;
  jwksUri: string | null;
  algorithms: string[];
  clockToleranceSeconds: number;
  introspection: { endpoint: string | null; clientIdEnv: string; clientSecretEnv: string } | null;
  resourceName: string | null;
  documentation: string | null;
}

/** A 2026-07-28 caching hint (SEP-2549). */
export interface CacheHintIR {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** Protocol features beyond the primitives. */
export interface ProtocolIR {
  /** Declare the logging capability. */
  logging: boolean;
  /** Capabilities declared even without entries (their lists answer empty). */
  declareEmpty: { tools: boolean; resources: boolean; prompts: boolean };
  /** Caching hints per operation (`tools/list`, `resources/read`, …). */
  cache: Record<string, CacheHintIR>;
  /** Entries per list page; 0 = one page. */
  pageSize: number;
}

export interface TransportsIR {
  stdio: boolean;
  http: HttpIR | null;
}

/** Fields shared by every primitive. */
export interface EntryIR {
  /** The wire name, exactly as declared. */
  name: string;
  /** camelCase identifier, unique across all entries of the same kind. */
  ident: string;
  /** PascalCase base for type names, unique across all type names. */
  typeBase: string;
  /** File-safe base name for handler files. */
  fileBase: string;
  title: string | null;
  description: string | null;
  icons: IconIR[];
  meta: Record<string, Json> | null;
  /** OAuth scopes a caller needs for this entry over HTTP (empty: none beyond the server's). */
  scopes: string[];
  loc: SourceLoc;
}

/** A content block's `type` (ContentBlock of the MCP schema). */
export type ToolContentKind = 'text' | 'image' | 'audio' | 'resource_link' | 'resource';

export interface ToolIR extends EntryIR {
  kind: 'tool';
  /** Advertised input schema (shared `$ref`s inlined), exactly what goes on the wire. */
  inputSchema: JsonSchema | null;
  outputSchema: JsonSchema | null;
  /** The schemas as written in the manifest (shared `$ref`s intact), for named types. */
  inputRaw: JsonSchema | null;
  outputRaw: JsonSchema | null;
  /** Name of the generated TS type, or null when the tool declares no input/output. */
  inputType: string | null;
  outputType: string | null;
  annotations: Record<string, Json> | null;
  /** Kinds of content blocks its results carry, as declared (`content`), or null when not said. */
  content: ToolContentKind[] | null;
  /** How the tool runs: in the request, or as a task (tasks extension, SEP-2663). */
  execution: ToolExecutionIR;
  /**
   * How its calls run and are logged, as the runtime's `ToolOptions` takes them (`timeoutMs`,
   * `logArguments`): only what the manifest sets, or null when it sets nothing.
   */
  options: Record<string, Json> | null;
  /** The tool's own concurrency and rate limits (the runtime's `LimitSpec`), or null. */
  limits: LimitSpecIR | null;
  /**
   * Handler file, relative to src/handlers without extension: `tools/get_forecast`; null for a
   * tool whose `http:` backend answers alone (no `handler: true`).
   */
  handlerPath: string | null;
  /** Its HTTP backend (`http:`), every default resolved, or null. */
  http: ToolHttpIR | null;
  /**
   * Arguments valid for the input schema that the contract test calls the tool with: only for
   * tools annotated `readOnlyHint: true` (others may change the world), null when none is found.
   */
  callArguments: Json | null;
  /** Where the handler's test stub starts: a plausible input, completed by the user. */
  stubInput: Json;
  /** Its view (MCP Apps), also in `meta.ui` as tools/list shows it, or null without `ui`. */
  view: ToolViewIR | null;
}

/** A tool's `http:` as the runtime's `HttpBinding` takes it (`api` resolved, where the rest goes). */
export interface ToolHttpIR {
  api: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query: string[];
  headers: Record<string, string>;
  /** The property that is the body, the properties forming it, or null. */
  body: string | string[] | null;
  /** Where the properties named nowhere go: a JSON body object for POST, PUT and PATCH without `body`, else the query string. */
  rest: 'query' | 'body';
  timeoutMs: number | null;
  /** The tool keeps a handler, which calls `ctx.http()`. */
  handler: boolean;
}

/** An entry of `apis`, as the runtime's `HttpApiConfig` takes it. */
export interface ApiIR {
  name: string;
  baseUrl: { env: string; default: string | null };
  auth:
    | { type: 'bearer'; env: string }
    | { type: 'apiKey'; in: 'header' | 'query'; name: string; env: string }
    | { type: 'basic'; usernameEnv: string; passwordEnv: string }
    | null;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** A tool's `ui`: `_meta.ui` of tools/list, the view's name resolved to its URI. */
export interface ToolViewIR {
  resourceUri: string | null;
  visibility: ('model' | 'app')[] | null;
}

/** Concurrency and rate limits as the runtime's `LimitSpec` takes them: only what the manifest sets. */
export interface LimitSpecIR {
  concurrency?: number;
  queueMs?: number;
  perPrincipal?: { requests: number; windowMs: number };
  global?: { requests: number; windowMs: number };
}

/** `execution` with every default resolved. */
export interface ToolExecutionIR {
  /** The manifest says `taskSupport` (even `forbidden`): tools/list shows it to 2025 clients. */
  listed: boolean;
  taskSupport: 'forbidden' | 'optional' | 'required';
  ttlMs: number;
  pollIntervalMs: number;
  inputBeforeTask: boolean;
}

export type ResourceContent =
  | { kind: 'text'; text: string }
  | { kind: 'blob'; base64: string }
  /** A view `mcpgen build` bundles from `folder` (manifest-relative) into `views/<output>` of the built server. */
  | { kind: 'built'; folder: string; output: string }
  | { kind: 'handler' };

export interface ResourceIR extends EntryIR {
  kind: 'resource';
  uri: string;
  mimeType: string | null;
  size: number | null;
  annotations: Record<string, Json> | null;
  content: ResourceContent;
  /** Handler file (dynamic resources only). */
  handlerPath: string | null;
  /** Manifest-relative path of the `file:` the content came from (for watch), or null. */
  sourceFile: string | null;
  /** Clients may subscribe to updates. */
  subscribe: boolean;
  /** Caching hint of its reads, or null. */
  cache: CacheHintIR | null;
  /**
   * As a view (MCP Apps: a `ui://` URI or `ui`), its `_meta.ui` (CSP, permissions, domain, border),
   * also in `meta.ui` and sent with its contents; null for any other resource.
   */
  view: { ui: Record<string, Json> } | null;
}

/** Static values, or a completion handler in the entry's handler file. */
export type CompletionIR = { kind: 'static'; values: string[] } | { kind: 'handler' };

export interface TemplateVarIR {
  name: string;
  /** Advertised/validated schema of the variable (shared `$ref`s inlined). */
  schema: JsonSchema;
  /** As written in the manifest, for types, as a property of the params object (its JSON Pointers moved there). */
  rawSchema: JsonSchema;
  completion: CompletionIR | null;
  /** Exploded (`{v*}`): the value may be a list, a `string[]` when its schema is `type: array`. */
  list: boolean;
  /** Its expression can carry `/` (`{+v}`, `{#v}`, `{/v}`, `{v*}`): checked as a path before reads. */
  carriesPath: boolean;
  /** The template supplies the root right before it (`file:///{+v}`, `{/v}`): a leading `/` escapes. */
  rooted: boolean;
}

export interface TemplateIR extends EntryIR {
  kind: 'template';
  uriTemplate: string;
  mimeType: string | null;
  annotations: Record<string, Json> | null;
  vars: TemplateVarIR[];
  paramsType: string;
  /** JSON Schema of the params object (used to validate variables at read time). */
  paramsSchema: JsonSchema;
  hasList: boolean;
  hasCompletionHandler: boolean;
  handlerPath: string;
  /** Path-like variable values reach the handler unchecked (`allowPathTraversal: true`). */
  allowPathTraversal: boolean;
  /** A URI of the template from valid values of its variables (the contract test reads it), or null. */
  sampleUri: string | null;
}

export interface PromptArgIR {
  name: string;
  title: string | null;
  description: string | null;
  required: boolean;
  /** Whether the manifest says `required` at all: prompts/list shows it only then. */
  requiredDeclared: boolean;
  /** Used for `{{name}}` when an optional argument is absent. */
  default: string | null;
  completion: CompletionIR | null;
  /** Keys MCP does not define (vendor keys), shown in prompts/list as written; null when none. */
  extra: Record<string, Json> | null;
}

export type PromptContentIR =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; uri: string; mimeType: string | null; text: string | null; blob: string | null };

export interface PromptMessageIR {
  role: 'user' | 'assistant';
  content: PromptContentIR;
  /** The content block's annotations, as declared, or null. */
  annotations: Record<string, Json> | null;
}

export interface PromptIR extends EntryIR {
  kind: 'prompt';
  args: PromptArgIR[];
  argsType: string | null;
  /** Declarative messages, or null when a handler renders the prompt. */
  messages: PromptMessageIR[] | null;
  hasCompletionHandler: boolean;
  /** Handler file when the prompt has a `get` handler or a completion handler, else null. */
  handlerPath: string | null;
  /** The JSON Schema of its arguments (all strings, as MCP prompt arguments are). */
  argsSchema: JsonSchema;
  /** Arguments valid for `argsSchema` that the contract test gets a handler prompt with, or null. */
  callArguments: Json | null;
}

export interface IR {
  /** The manifest's path relative to the project root, POSIX separators. */
  manifestPath: string;
  /** mcpgen's version for provenance headers, or null when omitted (`options.headerVersion: false`). */
  generatorVersion: string | null;
  server: ServerIR;
  transports: TransportsIR;
  protocol: ProtocolIR;
  /**
   * The MCP Apps extension, when a resource is a view or a tool says `ui`: the tools that only
   * views may call (`visibility` without `model`), which clients without the extension do not see.
   */
  ui: { appOnly: string[] } | null;
  /** The server-wide concurrency and rate limits on tool calls (`limits`), or null. */
  limits: LimitSpecIR | null;
  /** The HTTP APIs tools call (`apis`), sorted by name. */
  apis: ApiIR[];
  /** Shared `schemas:` (refs rewritten to `#/$defs/<Name>`), for named types. */
  sharedSchemas: { name: string; typeName: string; schema: JsonSchema }[];
  tools: ToolIR[];
  resources: ResourceIR[];
  templates: TemplateIR[];
  prompts: PromptIR[];
  /** Every file the manifest references (manifest-relative), for `watch`. */
  referencedFiles: string[];
}
