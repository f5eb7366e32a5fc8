// callTool / outputOf: a handler's answer read as a caller reads it, in every shape a handler can give.
import { describe, expect, it } from 'vitest';
import {
  callTool,
  inputRequired,
  NotImplementedError,
  outputOf,
  testContext,
  textOf,
  toolResult,
} from '../src/index.js';
import type { ToolContent, ToolHandler } from '../src/index.js';

type Input = { city: string };
type Output = { city: string; celsius: number };

const forecast: ToolHandler<Input, Output> = async ({ city }) => {
  if (city === 'Atlantis')
    return toolResult<Output>({ isError: true, content: [{ type: 'text', text: 'no such city' }] });
  if (city === 'Nowhere') throw new Error('the weather service is down');
  if (city === 'Ask') return toolResult<Output>({ content: [], structuredContent: { city, celsius: 1 } });
  return { city, celsius: 21 };
};

describe('callTool', () => {
  it('gives the output of a tool with output, typed', async () => {
    const answer = await callTool(forecast, { city: 'Paris' });
    expect(answer).toEqual({ kind: 'output', output: { city: 'Paris', celsius: 21 } });
    // Typed as the tool's output: its fields read without narrowing a union.
    expect((await outputOf(forecast, { city: 'Paris' })).celsius).toBe(21);
    expect(await outputOf(forecast, { city: 'Ask' })).toEqual({ city: 'Ask', celsius: 1 });
  });

  it("gives an error result's text, and a thrown error's message", async () => {
    expect(await callTool(forecast, { city: 'Atlantis' })).toEqual({ kind: 'error', message: 'no such city' });
    expect(await callTool(forecast, { city: 'Nowhere' })).toEqual({
      kind: 'error',
      message: 'the weather service is down',
    });
    await expect(outputOf(forecast, { city: 'Nowhere' })).rejects.toThrow(
      'the tool answered an error: the weather service is down',
    );
  });

  it('gives the input a handler asks the client for', async () => {
    const confirm: ToolHandler<Record<string, never>, ToolContent> = async (_input, ctx) =>
      ctx.accepted('ok')
        ? 'done'
        : ctx.ask({
            inputRequests: {
              ok: inputRequired.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } }),
            },
          });
    const answer = await callTool(confirm, {});
    expect(answer.kind).toBe('asked');
    expect(Object.keys(answer.kind === 'asked' ? (answer.inputRequests ?? {}) : {})).toEqual(['ok']);
    // With the answer in the context, the handler goes on.
    expect(textOf(await outputOf(confirm, {}, testContext({ accepted: <T>() => ({}) as T })))).toBe('done');
  });

  it("throws a stub's NotImplementedError on, so a test can tell an unwritten handler", async () => {
    const stub: ToolHandler<Input, Output> = async () => {
      throw new NotImplementedError('src/handlers/tools/forecast.ts');
    };
    await expect(callTool(stub, { city: 'Paris' })).rejects.toBeInstanceOf(NotImplementedError);
  });

  it('reads the text of a content tool', async () => {
    const hello: ToolHandler<Input, ToolContent> = async ({ city }) => [{ type: 'text', text: `hello ${city}` }];
    expect(textOf(await outputOf(hello, { city: 'Oslo' }))).toBe('hello Oslo');
  });
});
