// Pagination of the lists (`pagination.pageSize` in the manifest).

import { Buffer } from 'node:buffer';

import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { decorate } from './sdk-handlers.js';

type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';
const LISTS: [ListMethod, string][] = [
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resourceTemplates'],
];

function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const start = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(start) || start < 0) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  }
  return start;
}

/**
 * Splits every list into pages of `pageSize` with an opaque `nextCursor`. The SDK answers lists in
 * one page; the full list is the SDK's own (so it matches what is registered), sliced here.
 * Called before the entries are registered (sdk-handlers.ts).
 */
export function paginate(server: McpServer, pageSize: number): void {
  for (const [method, key] of LISTS) {
    decorate(server, method, (full) => async (request, ctx) => {
      const start = pageStart(request.params?.cursor as string | undefined);
      const result = (await full(request, ctx)) as Record<string, unknown>;
      const all = (result[key] ?? []) as unknown[];
      if (start > all.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
      const end = start + pageSize;
      return {
        ...result,
        [key]: all.slice(start, end),
        ...(end < all.length ? { nextCursor: Buffer.from(String(end)).toString('base64url') } : {}),
      };
    });
  }
}
