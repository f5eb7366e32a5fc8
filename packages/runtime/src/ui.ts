// Views of the MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26): a
// tool's `_meta.ui` names a `ui://` resource whose HTML a host renders in a sandboxed iframe.
// Generated servers load this module only when their manifest has views.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type ClientCapabilities,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type TextResourceContents,
} from '@modelcontextprotocol/server';

import { decorate } from './sdk-handlers.js';

/** The extension's identifier, under `capabilities.extensions` of both sides. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** What a view is served as: the extension's only content type so far. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** Who may call a tool (`_meta.ui.visibility`): the model, views of this server, or both. */
export type UiVisibility = 'model' | 'app';

/** A tool's `_meta.ui`. */
export interface UiToolMeta {
  resourceUri?: string;
  visibility?: UiVisibility[];
}

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/**
 * Whether the request's client renders views: it declares the extension (on the request, 2026-07-28;
 * at initialize, 2025) with the HTML content type among its `mimeTypes`, which the extension
 * requires of a client that supports it.
 */
export function declaresUi(sdk: ServerContext, server: McpServer): boolean {
  const modern = sdk.mcpReq.envelope?.[CLIENT_CAPABILITIES as never] as ClientCapabilities | undefined;
  const capabilities = modern ?? server.server.getClientCapabilities();
  const settings = capabilities?.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes(UI_MIME_TYPE);
}

type Listed = { name?: unknown; _meta?: Record<string, unknown> };

/**
 * Serves the extension on one instance: declares it, and shows views only to clients that declare
 * it. To any other client tools/list shows each tool without its `_meta.ui`, leaves out the tools
 * only views may call (`appOnly`: a host that knows nothing of views cannot keep them from the
 * model), and tools/call refuses those as unknown tools. Every tool's result is the same for both:
 * its content carries the text a client without views shows. Called before the tools are
 * registered, so the decorators wrap the SDK's handlers.
 */
export function installViews(server: McpServer, appOnly: readonly string[] = []): void {
  server.server.registerCapabilities({ extensions: { [UI_EXTENSION]: {} } });
  const viewOnly = new Set(appOnly);
  decorate(server, 'tools/list', (next) => async (request, ctx) => {
    const result = (await next(request, ctx)) as { tools?: Listed[] };
    if (declaresUi(ctx, server) || !Array.isArray(result?.tools)) return result;
    const tools = result.tools
      .filter((tool) => !(typeof tool.name === 'string' && viewOnly.has(tool.name)))
      .map(withoutView);
    return { ...result, tools };
  });
  if (viewOnly.size === 0) return;
  decorate(server, 'tools/call', (next) => async (request, ctx) => {
    const name = request.params?.name;
    if (typeof name === 'string' && viewOnly.has(name) && !declaresUi(ctx, server))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    return next(request, ctx);
  });
}

function withoutView(tool: Listed): Listed {
  if (tool._meta?.ui === undefined) return tool;
  const { ui: _ui, ...meta } = tool._meta;
  const { _meta: _dropped, ...rest } = tool;
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

/** What a built view is served with, its HTML aside. */
export type ViewContents = Omit<TextResourceContents, 'text'>;

/**
 * The read callback of a view `mcpgen build` bundled into one HTML file (`build:` in the manifest):
 * the file is read when a client first asks for the view, then kept, so a server starts without
 * it and serves the same document for its whole life. A server whose project was compiled without
 * `mcpgen build` answers with an error that says so.
 */
export function builtView(file: URL, contents: ViewContents): () => { contents: TextResourceContents[] } {
  let text: string | undefined;
  return () => {
    if (text === undefined) {
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'was not built' : 'cannot be read';
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `view ${contents.uri} ${reason} (${fileURLToPath(file)}): build the server with \`npm run build\` (mcpgen build)`,
        );
      }
    }
    return { contents: [{ ...contents, text }] };
  };
}
