// Calling a tool handler in a unit test and reading its answer typed, as a caller would see it.

import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { HandlerContext, ToolContent, ToolHandler } from './handlers.js';
import { isInputRequiredResult, isToolResult, NotImplementedError, run, testContext } from './runtime.js';

/**
 * What a tool answered: its output (the structured value of a tool with `output`, the content of
 * one without), the error a caller would read (`isError`, or the message of what the handler
 * threw), or the input it asked the client for (`ctx.ask()`).
 */
export type ToolAnswer<O> =
  | { kind: 'output'; output: O }
  | { kind: 'error'; message: string }
  | { kind: 'asked'; inputRequests: InputRequiredResult['inputRequests'] };

/**
 * Calls `handler` as the server does, without a client. A stub's NotImplementedError is thrown on,
 * so a test can tell an unwritten handler from a failing one.
 */
export async function callTool<I, O>(
  handler: ToolHandler<I, O>,
  input: I,
  ctx: HandlerContext = testContext(),
): Promise<ToolAnswer<O>> {
  let value: Awaited<ReturnType<ToolHandler<I, O>>> | InputRequiredResult;
  try {
    value = await run(() => handler(input, ctx));
  } catch (error) {
    if (error instanceof NotImplementedError) throw error;
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (isInputRequiredResult(value)) return { kind: 'asked', inputRequests: value.inputRequests };
  if (!isToolResult(value)) return { kind: 'output', output: value as O };
  if (value.isError) {
    const text = value.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    return { kind: 'error', message: text.join('\n') };
  }
  // A result built with toolResult(): its structured value, or its content for a content tool.
  return { kind: 'output', output: (value.structuredContent ?? value.content) as O };
}

/** The tool's output, or an error naming what it answered instead: for `assert` on its fields. */
export async function outputOf<I, O>(handler: ToolHandler<I, O>, input: I, ctx?: HandlerContext): Promise<O> {
  const answer = await callTool(handler, input, ctx);
  if (answer.kind === 'output') return answer.output;
  throw new Error(
    answer.kind === 'error'
      ? `the tool answered an error: ${answer.message}`
      : `the tool asked the client for ${Object.keys(answer.inputRequests ?? {}).join(', ')}`,
  );
}

/** For a tool without `output`: its content as text (text blocks joined by newlines). */
export function textOf(output: ToolContent): string {
  if (typeof output === 'string') return output;
  return output.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}
