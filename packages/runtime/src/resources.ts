// Resources and resource templates: reading them through their handlers, listing a template's.

import { Buffer } from 'node:buffer';

import {
  type Annotations,
  type InputRequiredResult,
  type ListResourcesResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type ServerContext,
  type StandardSchemaWithJSON,
  type Variables,
} from '@modelcontextprotocol/server';

import type { ResourceBody, ResourceHandler, TemplateLister, TemplateReader } from './handlers.js';
import { type Answer, handlerContext, invoke, type Loader, notFound, type Open, type OpenIcons } from './runtime.js';

export { uriTemplate } from './uri-match.js';

type ResourceMetadata = Parameters<McpServer['registerResource']>[2];
/** What resources/list shows of each resource and template (and its cache hint). */
export type ResourceInfo = Omit<ResourceMetadata, 'icons' | 'annotations'> &
  OpenIcons & { annotations?: Open<Annotations> };

function resourceResult(body: ResourceBody, uri: URL, mimeType: string | undefined): ReadResourceResult {
  if (typeof body === 'string') return { contents: [{ uri: uri.href, mimeType, text: body }] };
  if (body instanceof Uint8Array) {
    const blob = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
    return { contents: [{ uri: uri.href, mimeType, blob }] };
  }
  // MCP has no empty read: a resource that is not there is an error (server/resources).
  if (body.length === 0) {
    throw notFound(
      uri,
      `Resource not found: ${uri.href} (its handler returned no contents; to say so, throw notFound(uri))`,
    );
  }
  return { contents: body };
}

/** Reads a dynamic resource. */
export function readResource(
  module: Loader<{ read: ResourceHandler }>,
  uri: URL,
  sdk: ServerContext,
  mimeType?: string,
  server?: McpServer,
): Answer<ReadResourceResult> {
  return invoke(
    module,
    { sdk, server },
    (m, ctx) => m.read(uri, ctx),
    (body) => resourceResult(body, uri, mimeType),
  );
}

function invalidUri(uri: URL, reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid resource URI ${uri.href}: ${reason}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A variable's value in the shape its schema declares: a list (of one item, too) for `type: array`,
 * the text as sent for `type: string`. A list not exploded (`{tags}`) is sent comma-separated, its
 * items' own commas percent-encoded.
 */
function shapedAsDeclared(value: string | string[], schema: unknown): string | string[] {
  const type = isRecord(schema) ? schema.type : undefined;
  if (type === 'array') return Array.isArray(value) ? value : value.split(',');
  if (type === 'string' && Array.isArray(value)) return value.join(',');
  return value;
}

/** Reads a resource of a template once the URI's variables are decoded and valid (else -32602). */
export async function readTemplate<P>(
  module: Loader<{ read: TemplateReader<P> }>,
  uri: URL,
  variables: Variables,
  sdk: ServerContext,
  params: StandardSchemaWithJSON<P>,
  mimeType?: string,
  server?: McpServer,
): Promise<ReadResourceResult | InputRequiredResult> {
  // The SDK matches the template against the URI as sent, so values are still percent-encoded.
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      throw invalidUri(uri, `malformed percent-encoding in ${JSON.stringify(value)}`);
    }
  };
  const properties = (params['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as { properties?: unknown })
    .properties;
  const decoded = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => {
      const shaped = shapedAsDeclared(value, isRecord(properties) ? properties[name] : undefined);
      return [name, Array.isArray(shaped) ? shaped.map(decode) : decode(shaped)];
    }),
  );
  const checked = await params['~standard'].validate(decoded);
  if (checked.issues) throw invalidUri(uri, checked.issues.map((issue) => issue.message).join('; '));
  return invoke(
    module,
    { sdk, server },
    (m, ctx) => m.read(checked.value, uri, ctx),
    (body) => resourceResult(body, uri, mimeType),
  );
}

/**
 * Lists the resources of a template. The SDK shows each under its template's metadata
 * (`{ ...template, ...resource }`), so what a resource sets is its own and its template's
 * description, mimeType, icons and annotations fill in the rest. Not the title: clients show a
 * title in place of the name, and every resource of the template would be shown by the template's
 * one; a resource without a title of its own is shown by its name.
 */
export async function listResources(
  module: Loader<{ list: TemplateLister }>,
  sdk: ServerContext,
  server?: McpServer,
): Promise<ListResourcesResult> {
  const resources = await (await module()).list(handlerContext(sdk, server));
  // An own `title: undefined` stops the template's from being spread in; JSON leaves it out.
  return {
    resources: resources.map((resource) => ('title' in resource ? resource : { ...resource, title: undefined })),
  };
}
