// Prompts: their argument schemas, declarative messages, handlers, and how prompts/list shows them.

import {
  completable,
  type CompleteCallback,
  type GetPromptResult,
  type InputRequiredResult,
  isInputRequiredResult,
  type JsonSchemaType,
  type McpServer,
  type Prompt,
  type PromptMessage,
  type ServerContext,
  type StandardSchemaV1,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';

import type { PromptGetter } from './handlers.js';
import { type Answer, invoke, isPromiseLike, liftEmbeddedAnnotations, type Loader, type OpenIcons } from './runtime.js';
import { compiledOnFirstUse } from './schemas.js';
import { decorate } from './sdk-handlers.js';

/** A prompt argument as prompts/list shows it (MCP gives arguments a `title`; the SDK's type does not). */
export type PromptArgumentInfo = NonNullable<Prompt['arguments']>[number] & {
  title?: string;
  [key: string]: unknown;
};

/** What prompts/list shows of a prompt besides its arguments. */
export type PromptInfo = Pick<Prompt, 'title' | 'description' | '_meta'> & OpenIcons;

/**
 * The argsSchema of a prompt: its JSON Schema validates, a `completable` per argument completes.
 * The SDK looks completers up in `argsSchema.shape`, a zod object's layout, so the schema gets one
 * (modelcontextprotocol/typescript-sdk#1474 would make completers an option of their own).
 */
export function promptArguments<A>(
  schema: JsonSchemaType,
  completers: Readonly<Record<string, CompleteCallback<StandardSchemaV1<string>>>>,
): StandardSchemaWithJSON<A> {
  // No prototype: the SDK reads `shape[name]` for the argument name the client sends.
  const shape: Record<string, unknown> = Object.create(null);
  // Only the completer of a field is read; the object schema does the validating.
  for (const [name, complete] of Object.entries(completers)) {
    shape[name] = completable(compiledOnFirstUse<string>({ type: 'string' }), complete);
  }
  return Object.assign(compiledOnFirstUse<A>(schema), { shape });
}

/**
 * Renders a declarative prompt: `{{name}}` in text (and in embedded text resources) becomes that
 * argument's value, or nothing when an optional argument is absent. Values are inserted once,
 * never re-scanned, so an argument cannot inject a placeholder.
 */
export function renderPrompt(
  messages: readonly PromptMessage[],
  args: object,
  defaults: Record<string, string> = {},
): GetPromptResult {
  const values = new Map<string, unknown>(Object.entries(args));
  const fill = (text: string) =>
    text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_match, name: string) =>
      String(values.get(name) ?? (Object.hasOwn(defaults, name) ? defaults[name] : '')),
    );
  return {
    messages: messages.map((message): PromptMessage => {
      const content = message.content;
      if (content.type === 'text') return { ...message, content: { ...content, text: fill(content.text) } };
      // Embedded text resources are templates too; blobs and media are data.
      if (content.type === 'resource' && 'text' in content.resource) {
        return {
          ...message,
          content: {
            ...content,
            resource: { ...content.resource, text: fill(content.resource.text) },
          },
        };
      }
      return message;
    }),
  };
}

/** prompts/get carries the prompt's declared description: the SDK sends what the callback returns. */
export function describedPrompt(
  description: string | undefined,
  answer: Answer<GetPromptResult>,
): Answer<GetPromptResult> {
  if (description === undefined) return answer;
  const add = (result: GetPromptResult | InputRequiredResult) =>
    isInputRequiredResult(result) || result.description !== undefined ? result : { description, ...result };
  return isPromiseLike(answer) ? Promise.resolve(answer).then(add) : add(answer);
}

/** Gets a prompt from its handler: a string becomes one user text message. */
export function getPrompt<A>(
  module: Loader<{ get: PromptGetter<A> }>,
  args: A,
  sdk: ServerContext,
  server?: McpServer,
): Answer<GetPromptResult> {
  return invoke(module, { sdk, server }, (m, ctx) => m.get(args, ctx), promptResult);
}

function promptResult(rendered: string | PromptMessage[]): GetPromptResult {
  return {
    messages:
      typeof rendered === 'string'
        ? [{ role: 'user', content: { type: 'text', text: rendered } }]
        : rendered.map((m) => ({ ...m, content: liftEmbeddedAnnotations(m.content) })),
  };
}

/**
 * prompts/list shows each prompt's arguments as the manifest declares them: the SDK derives them
 * from the argument schema, which has no titles and says `required: false` for every optional one.
 * Called before the prompts are registered (sdk-handlers.ts).
 */
export function showDeclaredArguments(
  server: McpServer,
  declared: Readonly<Record<string, PromptArgumentInfo[]>>,
): void {
  decorate(server, 'prompts/list', (full) => async (request, ctx) => {
    const result = (await full(request, ctx)) as Record<string, unknown>;
    const listed = (result.prompts ?? []) as { name: string }[];
    const prompts = listed.map((p) => (Object.hasOwn(declared, p.name) ? { ...p, arguments: declared[p.name] } : p));
    return { ...result, prompts };
  });
}
