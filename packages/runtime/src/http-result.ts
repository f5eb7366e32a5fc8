// An API's answer as a tools/call result: JSON as structuredContent and text, text as text,
// images as image content, HTTP errors as `isError` results with the status and the API's message.

import { Buffer } from 'node:buffer';

import type { CallToolResult } from '@modelcontextprotocol/server';

import type { HttpResponse } from './http-call.js';

/** The longest API error message an error result quotes. */
const MAX_MESSAGE = 1000;

/**
 * The result of a tool whose answer is `res`. JSON goes out as text and, when it is an object, as
 * structuredContent; a tool with `output` gets structuredContent whatever the JSON (MCP requires an
 * object), an array or a scalar wrapped as `{ result: value }`.
 */
export function httpResult(res: HttpResponse, hasOutput: boolean): CallToolResult {
  if (!res.ok) return failed(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${apiMessage(res)}`);
  const { data } = res;
  if (res.json) {
    const text = [{ type: 'text' as const, text: JSON.stringify(data) }];
    if (isObject(data)) return { content: text, structuredContent: data };
    return hasOutput ? { content: text, structuredContent: { result: data } } : { content: text };
  }
  if (hasOutput) return failed(`expected JSON, got ${describe(res)}`);
  if (data === null) return { content: [{ type: 'text', text: `${res.status} ${res.statusText} (no content)` }] };
  if (typeof data === 'string') return { content: [{ type: 'text', text: data }] };
  const bytes = data as Uint8Array;
  if (res.contentType.startsWith('image/'))
    return { content: [{ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: res.contentType }] };
  return { content: [{ type: 'text', text: `the API answered with ${describe(res)}, which is not shown` }] };
}

/** An error result for a request that got no answer, or could not be made. */
export function failed(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

function describe(res: HttpResponse): string {
  return `${res.contentType || 'a body without a media type'} (${res.size} bytes)`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `: <message>` from an error body: its JSON `message`, `error`, `detail` or `title`, else its text. */
function apiMessage(res: HttpResponse): string {
  let message: unknown = res.data;
  if (isObject(message)) {
    const found = ['message', 'error', 'detail', 'title'].map((k) => (message as Record<string, unknown>)[k]);
    const nested = found.find(isObject)?.message;
    message =
      found.find((v) => typeof v === 'string' && v.trim() !== '') ??
      (typeof nested === 'string' ? nested : JSON.stringify(message));
  }
  if (typeof message !== 'string' || !message.trim()) return '';
  const text = message.trim();
  if (text.length <= MAX_MESSAGE) return `: ${text}`;
  // Not between the two halves of a character outside the BMP.
  const end = /[\uD800-\uDBFF]/.test(text[MAX_MESSAGE - 1]!) ? MAX_MESSAGE - 1 : MAX_MESSAGE;
  return `: ${text.slice(0, end)}…`;
}
