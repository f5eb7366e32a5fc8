// Multi-round requests (elicitation, sampling, roots) on both eras, and roots change notifications.

import {
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type InputRequiredResult,
  isInputRequiredResult,
  type McpServer,
  type ProtocolEra,
  ProtocolError,
  ProtocolErrorCode,
  type Root,
  type ServerContext,
} from '@modelcontextprotocol/server';

import { requestStateCodec } from './request-state.js';
import { log } from './request-log.js';
import { decorate } from './sdk-handlers.js';

/** A failed input request: the client answered with an error, or the request could not be sent. */
export interface InputError {
  kind: 'error';
  /** The JSON-RPC code: the client's own (-32601 "Roots not supported"…), or one named below. */
  code: number;
  message: string;
}

/** The failed input requests of a round, by key. */
export type InputErrors = Readonly<Record<string, InputError>>;

// ---- Elicitation content against the requested schema --------------------------------------

type Schema = Record<string, unknown>;
const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const FORMATS: Record<string, (value: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  uri: (v) => URL.canParse(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
};

/** The values an enum schema allows (`enum`, or titled `oneOf`/`anyOf` of `const`). */
function allowed(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = schema.oneOf ?? schema.anyOf;
  return Array.isArray(options) ? options.map((o) => (isObject(o) ? o.const : undefined)) : undefined;
}

function checkString(name: string, value: unknown, schema: Schema): string | undefined {
  if (typeof value !== 'string') return `${name} must be a string`;
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    return `${name} must have at least ${schema.minLength} characters`;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    return `${name} must have at most ${schema.maxLength} characters`;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    return `${name} must match ${schema.pattern}`;
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format && !format(value)) return `${name} must be a valid ${String(schema.format)}`;
  const values = allowed(schema);
  if (values && !values.includes(value))
    return `${name} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return undefined;
}

function checkField(name: string, value: unknown, schema: Schema): string | undefined {
  switch (schema.type) {
    case 'string':
      return checkString(name, value, schema);
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} must be a number`;
      if (schema.type === 'integer' && !Number.isInteger(value)) return `${name} must be an integer`;
      if (typeof schema.minimum === 'number' && value < schema.minimum)
        return `${name} must be at least ${schema.minimum}`;
      if (typeof schema.maximum === 'number' && value > schema.maximum)
        return `${name} must be at most ${schema.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${name} must be a boolean`;
    case 'array': {
      if (!Array.isArray(value)) return `${name} must be an array`;
      if (typeof schema.minItems === 'number' && value.length < schema.minItems)
        return `${name} must have at least ${schema.minItems} items`;
      if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
        return `${name} must have at most ${schema.maxItems} items`;
      const items = isObject(schema.items) ? schema.items : { type: 'string' };
      for (const [index, item] of value.entries()) {
        const problem = checkString(`${name}[${index}]`, item, items);
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Checks accepted elicitation content against the requested schema, the restricted subset the
 * elicitation chapter allows (a flat object of string, number/integer, boolean and enum-array
 * fields, with `required`; other fields only where `additionalProperties: false`). Returns what
 * is wrong, or undefined when the content conforms.
 */
export function elicitedContentProblem(schema: unknown, content: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (!isObject(content)) return 'content must be an object';
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required)
    if (typeof name === 'string' && !Object.hasOwn(content, name)) return `${name} is required`;
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    // As in JSON Schema, fields the form did not ask for pass unless it forbids them.
    if (!isObject(field)) {
      if (schema.additionalProperties === false) return `${name} was not requested`;
      continue;
    }
    const problem = checkField(name, value, field);
    if (problem) return problem;
  }
  return undefined;
}

/** The requested schemas of the form elicitations among `requests`, by key. */
/** The form schemas of the elicitations among `requests`, by key. */
export function requestedSchemas(requests: InputRequiredResult['inputRequests']): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests ?? {})) {
    const params = (request as { method?: string; params?: Schema }).params;
    if ((request as InputRequest).method === 'elicitation/create' && params?.mode !== 'url')
      if (params?.requestedSchema !== undefined) schemas[key] = params.requestedSchema;
  }
  return schemas;
}

// ---- 2026-07-28: the requested schemas ride in the signed requestState ----------------------

/** Marks a requestState the runtime wrapped around the handler's own. */
const SEALED = 'io.mcpgen/input';

interface Sealed {
  [SEALED]: { asked: string[]; schemas: Record<string, unknown>; state?: unknown };
}

const isSealed = (value: unknown): value is Sealed => isObject(value) && isObject(value[SEALED]);

/** The handler's own payload of a verified requestState (the runtime's wrapping taken off). */
export function ownState(value: unknown): unknown {
  return isSealed(value) ? value[SEALED].state : value;
}

/**
 * A 2026-07-28 input_required result carries what it asked (the keys, and the schemas of form
 * elicitations): the retry is stateless, so the server learns it from the requestState it signed.
 * The handler's own requestState payload goes inside, and `ctx.requestState()` reads it as before.
 */
async function seal(result: InputRequiredResult, sdk: ServerContext): Promise<InputRequiredResult> {
  const asked = Object.keys(result.inputRequests ?? {});
  if (asked.length === 0) return result;
  const codec = requestStateCodec();
  const state =
    typeof result.requestState === 'string' ? ownState(await codec.verify(result.requestState, sdk)) : undefined;
  const schemas = requestedSchemas(result.inputRequests);
  return {
    ...result,
    requestState: await codec.mint({ [SEALED]: { asked, schemas, state } }, sdk),
  };
}

const RESULT_SHAPES = ['action', 'roots', 'role'];

/**
 * 2026-07-28 gives `inputResponses` no error answer (each entry is an ElicitResult,
 * CreateMessageResult or ListRootsResult): a client that cannot fulfil a request leaves its key
 * out. A retry that leaves out a key the server asked for reads as an error, so a handler falls
 * back as it does on 2025; an entry shaped like a JSON-RPC error lends its code and message.
 */
export function unanswered(sdk: ServerContext, key: string): InputError | undefined {
  const sealed = sdk.mcpReq.envelope === undefined ? undefined : sdk.mcpReq.requestState();
  if (!isSealed(sealed) || !sealed[SEALED].asked.includes(key)) return undefined;
  const responses = (sdk.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
  const entry = Object.hasOwn(responses, key) ? responses[key] : undefined;
  if (isObject(entry) && RESULT_SHAPES.some((shape) => Object.hasOwn(entry, shape))) return undefined;
  const error = isObject(entry) && isObject(entry.error) ? entry.error : {};
  const method = sealed[SEALED].schemas[key] === undefined ? 'the input request' : 'elicitation';
  return {
    kind: 'error',
    code: typeof error.code === 'number' ? error.code : ProtocolErrorCode.MethodNotFound,
    message:
      typeof error.message === 'string' ? error.message : `the client retried without an answer to ${method} '${key}'`,
  };
}

const MULTI_ROUND_METHODS = ['tools/call', 'prompts/get', 'resources/read'];

/**
 * 2026-07-28 (basic/patterns/mrtr): `inputResponses` are request params, so accepted elicitation
 * content that does not match the schema the server asked with is invalid params, `-32602`,
 * before any handler runs. The check decorates the SDK's handlers as they are installed
 * (sdk-handlers.ts), so it runs after the SDK's own check of the state.
 */
function checkInputResponses(server: McpServer): void {
  for (const method of MULTI_ROUND_METHODS) {
    decorate(server, method, (handler) => async (request, ctx) => {
      const responses = ctx.mcpReq.inputResponses as Record<string, unknown> | undefined;
      // The SDK has verified the state by now (ServerOptions.requestState.verify) and hands the
      // decoded value on; state that did not verify was refused with the SDK's own error.
      const sealed = ctx.mcpReq.requestState();
      if (responses && isSealed(sealed)) {
        for (const [key, schema] of Object.entries(sealed[SEALED].schemas)) {
          const response = responses[key] as { action?: unknown; content?: unknown } | undefined;
          if (response?.action !== 'accept' || response.content === undefined) continue;
          const problem = elicitedContentProblem(schema, response.content);
          if (problem) {
            throw new ProtocolError(
              ProtocolErrorCode.InvalidParams,
              `inputResponses.${key}: the accepted content does not match the requested schema: ${problem}`,
            );
          }
        }
      }
      return handler(request, ctx);
    });
  }
}

// ---- 2025 sessions: the runtime fulfils the rounds itself -------------------------------------

/** Rounds of one request before it fails (as the SDK's own loop). */
const MAX_ROUNDS = 8;
/** Per input request: people answer elicitations, so far beyond the 60 s protocol default. */
const LEG_TIMEOUT_MS = 600_000;
/** Between rounds that carry requestState only, so a handler cannot spin. */
const STATE_ONLY_PAUSE_MS = 250;

/** The handler run again with a round's answers; `sdk` carries the responses and the state. */
export type Rerun = (sdk: ServerContext, errors: InputErrors) => Promise<unknown> | unknown;

function failure(method: string, message: string): CallToolResult {
  // tools/call failures are tool results on 2025 (isError); the others are JSON-RPC errors.
  if (method === 'tools/call') return { content: [{ type: 'text', text: message }], isError: true };
  throw new ProtocolError(ProtocolErrorCode.InternalError, message);
}

/** What a 2025 client must have declared for `request` (the shim's rule: bare `elicitation` is form). */
function missingCapability(request: InputRequest, caps: ClientCapabilities | undefined): boolean {
  const method = (request as { method: string }).method;
  if (method === 'roots/list') return !caps?.roots;
  if (method === 'sampling/createMessage') return !caps?.sampling;
  const mode = (request as { params?: { mode?: string } }).params?.mode ?? 'form';
  const elicitation = caps?.elicitation as Record<string, unknown> | undefined;
  if (!elicitation) return true;
  const bare = Object.keys(elicitation).length === 0;
  return mode === 'url' ? !elicitation.url : !(elicitation.form || bare);
}

const errorCode = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : ProtocolErrorCode.InternalError;
};

/** The message a client sent with its error, without the SDK's "MCP error <code>: " prefix. */
const errorMessage = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/^MCP error -?\d+: /, '');

/** The 2025 client a connection serves: what it declared, and the revision it speaks. */
interface Client {
  caps: ClientCapabilities | undefined;
  version: string | undefined;
}

/** The revision that gave elicitation its `mode` (form or URL). */
const MODES_SINCE = '2025-11-25';

/** Sends one input request to the client, relating it to the request being served. */
async function leg(
  key: string,
  request: InputRequest,
  sdk: ServerContext,
  client: Client,
): Promise<{ response?: unknown; error?: InputError }> {
  const method = (request as { method: string }).method;
  if (missingCapability(request, client.caps)) {
    return {
      error: {
        kind: 'error',
        code: ProtocolErrorCode.MissingRequiredClientCapability,
        message: `the client did not declare the capability ${method} needs`,
      },
    };
  }
  let params = (request as { params?: Schema }).params;
  if (method === 'elicitation/create') {
    params = { mode: 'form', ...params };
    // 2025-11-25 URL mode names each elicitation; 2026-07-28's embedded form has no id.
    if (params.mode === 'url' && params.elicitationId === undefined)
      params = { ...params, elicitationId: crypto.randomUUID() };
    // `mode` came with 2025-11-25: an older client gets the request its revision defines.
    if (client.version !== undefined && client.version < MODES_SINCE) {
      if (params.mode === 'url') {
        return {
          error: {
            kind: 'error',
            code: ProtocolErrorCode.MissingRequiredClientCapability,
            message: `URL elicitation needs protocol revision ${MODES_SINCE}; the client speaks ${client.version}`,
          },
        };
      }
      const { mode: _mode, ...form } = params;
      params = form;
    }
  }
  let response: unknown;
  try {
    response = await sdk.mcpReq.send({ method, params } as never, {
      timeout: LEG_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress: () => {},
      signal: sdk.mcpReq.signal,
    });
  } catch (error) {
    if (sdk.mcpReq.signal.aborted) throw error;
    return { error: { kind: 'error', code: errorCode(error), message: errorMessage(error) } };
  }
  const elicited = response as { action?: unknown; content?: unknown };
  if (method === 'elicitation/create' && elicited.action === 'accept' && params && (params.mode ?? 'form') === 'form') {
    const problem = elicitedContentProblem(params.requestedSchema, elicited.content ?? {});
    if (problem) {
      const message = `the accepted content does not match the requested schema: ${problem}`;
      log('warn', `elicitation '${key}' of ${sdk.mcpReq.method}: ${message}`);
      return { error: { kind: 'error', code: ProtocolErrorCode.InvalidParams, message } };
    }
  }
  return { response };
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), {
      once: true,
    });
  });

/**
 * Fulfils an input_required answer on a 2025 connection: sends every input request to the
 * client, then runs the handler again with the results, until it answers. Unlike the SDK's own
 * loop, a request that fails (the client's "Roots not supported", a timeout, content that does
 * not match the schema) does not end the call: the handler sees `{ kind: 'error' }` and decides.
 */
async function fulfil(first: InputRequiredResult, sdk: ServerContext, client: Client, rerun: Rerun): Promise<unknown> {
  const method = sdk.mcpReq.method;
  let current = first;
  for (let round = 1; ; round += 1) {
    if (round > MAX_ROUNDS) return failure(method, `'${method}' still required input after ${MAX_ROUNDS} rounds`);
    const requests = Object.entries(current.inputRequests ?? {});
    const state = current.requestState;
    if (requests.length === 0 && state === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The handler of ${method} asked for input with neither inputRequests nor requestState`,
      );
    }
    const responses: Record<string, unknown> = {};
    const errors: Record<string, InputError> = {};
    if (requests.length === 0) await pause(STATE_ONLY_PAUSE_MS, sdk.mcpReq.signal);
    const legs = await Promise.all(
      requests.map(async ([key, request]) => [key, await leg(key, request, sdk, client)] as const),
    );
    for (const [key, { response, error }] of legs) {
      if (error) errors[key] = error;
      else responses[key] = response;
    }
    let decoded: unknown;
    if (state !== undefined) {
      decoded = await requestStateCodec()
        .verify(state, sdk)
        .catch(() => {
          throw new ProtocolError(
            ProtocolErrorCode.InternalError,
            `The handler of ${method} returned a requestState it did not sign with ctx.signState()`,
          );
        });
    }
    const next = await rerun(
      {
        ...sdk,
        mcpReq: {
          ...sdk.mcpReq,
          inputResponses: responses as never,
          requestState: (() => decoded) as never,
        },
      },
      errors,
    );
    if (!isInputRequiredResult(next)) return next;
    current = next;
  }
}

/**
 * What becomes of a handler's input_required answer: on a 2025 connection (no per-request
 * envelope) the runtime fulfils it; on 2026-07-28 it goes to the client, sealed with the schemas.
 */
export function followUp(
  result: InputRequiredResult,
  sdk: ServerContext,
  server: McpServer | undefined,
  rerun: Rerun,
): Promise<unknown> {
  if (sdk.mcpReq.envelope === undefined) {
    const client = {
      caps: server?.server.getClientCapabilities(),
      version: server?.server.getNegotiatedProtocolVersion(),
    };
    return fulfil(result, sdk, client, rerun);
  }
  return seal(result, sdk);
}

// ---- Roots change notifications -------------------------------------------------------------

/** A client's roots changed (`notifications/roots/list_changed`, 2025 connections). */
export interface RootsChange {
  /** The instance serving the connection: stdio, one 2025 HTTP session or one SSE session. */
  server: McpServer;
  /** The 2025 HTTP or SSE session, undefined on stdio. */
  sessionId: string | undefined;
  /** Asks the client for its roots now (`roots/list`). */
  listRoots(): Promise<Root[]>;
}

const rootsListeners = new Set<(change: RootsChange) => void | Promise<void>>();

/**
 * Calls `listener` whenever a connected client says its roots changed. Roots exist on 2025
 * connections (2026-07-28 deprecates them and has no server-to-client channel to send them on).
 * Returns the removal. Register it in main.ts or at the top of a handler module.
 */
export function onRootsChanged(listener: (change: RootsChange) => void | Promise<void>): () => void {
  rootsListeners.add(listener);
  return () => rootsListeners.delete(listener);
}

function watchRoots(server: McpServer): void {
  server.server.setNotificationHandler('notifications/roots/list_changed', async () => {
    const change: RootsChange = {
      server,
      sessionId: server.server.transport?.sessionId,
      listRoots: async () => (await server.server.listRoots()).roots,
    };
    for (const listener of rootsListeners) {
      try {
        await listener(change);
      } catch (error) {
        log('error', `onRootsChanged listener failed: ${errorMessage(error)}`);
      }
    }
  });
}

/** Sets an instance up for multi-round requests and roots changes of its era (server.ts). */
export function installInput(server: McpServer, era: ProtocolEra): void {
  if (era === 'modern') checkInputResponses(server);
  else watchRoots(server);
}
