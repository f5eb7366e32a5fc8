import type { Readable, Writable } from 'node:stream';
import {
  INVALID_REQUEST,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  PARSE_ERROR,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';

export interface StdioTransportOptions {
  /**
   * Longest line read, in bytes; a longer one is answered with -32600 and skipped (default 10 MiB).
   * The answer carries the line's id when a top-level `"id"` member can be read as it streams by.
   */
  maxLineBytes?: number;
  /** Output held while the client does not read before stdin is paused, in characters (default 4 Mi). */
  maxQueuedChars?: number;
}

type Id = string | number | null;

/** The revision whose clients may send JSON-RPC batches; later revisions removed batching. */
const BATCH_REVISION = '2025-03-26';

/**
 * Newline-delimited JSON-RPC on stdin/stdout for serveStdio (in place of the SDK's stdio transport,
 * which drops unparsable lines silently, logs invalid ones without answering, stops at a line over
 * its buffer size, and adds two listeners per pending write).
 *
 * Malformed input is answered as JSON-RPC 2.0 §5.1 says: -32700 with id null for text that is not
 * JSON, -32600 for JSON that is not a message (id null unless the id itself is valid). A line over
 * the limit is -32600 with its id when the id can be read without holding the line (IdScanner).
 * Output is queued and flushed in one write per event-loop turn; while stdout is full it waits for
 * ONE drain listener, and when the queue passes its bound stdin is paused until the client reads.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxLineBytes: number;
  private readonly maxQueuedChars: number;
  private line: Buffer[] = [];
  private lineBytes = 0;
  private discarding = false;
  /** The skipped line's id search, while its answer waits for the id or the line's end. */
  private scan: IdScanner | null = null;
  private queue: string[] = [];
  private queuedChars = 0;
  private blocked = false;
  private flushScheduled = false;
  private inputPaused = false;
  private closed = false;
  private protocolVersion: string | undefined;
  /** Open 2025-03-26 batches: request ids still to answer, and the answers so far. */
  private readonly batches = new Map<Id, { pending: Set<Id>; answers: object[] }>();

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: StdioTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.maxQueuedChars = options.maxQueuedChars ?? 4 * 1024 * 1024;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.output.on('drain', this.onDrain);
    this.output.on('error', this.onOutputError);
    if (this.input.readableEnded || this.input.destroyed) setImmediate(this.onEnd);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('stdio transport is closed');
    if (!('method' in message) && this.batches.size > 0 && this.collect(message)) return;
    this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.pause();
    this.line = [];
    this.scan = null;
    // The drain listener stays: output already queued is still flushed.
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      const part = chunk.subarray(start, end);
      if (!this.discarding) {
        if (this.lineBytes + part.length > this.maxLineBytes) this.tooLong(part);
        else {
          this.line.push(part);
          this.lineBytes += part.length;
        }
      } else if (this.scan) this.scanOn(part);
      if (newline === -1) return;
      if (this.discarding) {
        this.discarding = false;
        // The line ended before its id was read: nothing more can be known of it.
        if (this.scan) this.answerTooLong(null);
      } else this.endLine();
      start = newline + 1;
    }
  };

  /**
   * A line over the limit is skipped up to its newline, and answered as soon as its id is known:
   * at once when the id came first, else when the id streams by or the line ends (id null then).
   * Clients that write `"id"` after `"params"` (the TypeScript SDK does) get their id too.
   */
  private tooLong(part: Buffer): void {
    this.discarding = true;
    const scan = new IdScanner();
    for (const held of this.line) scan.feed(held);
    this.line = [];
    this.lineBytes = 0;
    this.scan = scan;
    this.scanOn(part);
  }

  private scanOn(part: Buffer): void {
    const scan = this.scan!;
    scan.feed(part);
    if (scan.done) this.answerTooLong(scan.id);
  }

  private answerTooLong(id: Id): void {
    this.scan = null;
    const mib = Math.round((this.maxLineBytes / 1024 / 1024) * 100) / 100;
    this.reply(
      id,
      INVALID_REQUEST,
      `Invalid Request: message longer than ${this.maxLineBytes} bytes (${mib} MiB), the stdio line limit; skipped up to its newline`,
    );
  }

  private endLine(): void {
    const bytes = this.line.length === 1 ? this.line[0]! : Buffer.concat(this.line);
    this.line = [];
    this.lineBytes = 0;
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(null, PARSE_ERROR, 'Parse error: the line is not valid JSON');
      return;
    }
    if (Array.isArray(value)) this.batch(value);
    else {
      const problem = invalidMessage(value);
      if (problem === undefined) this.deliver(value as JSONRPCMessage);
      else this.reply(validId(value), INVALID_REQUEST, `Invalid Request: ${problem}`);
    }
  }

  /** 2025-03-26 sessions must accept batches (answered with one array); later revisions removed them. */
  private batch(values: unknown[]): void {
    if (this.protocolVersion !== BATCH_REVISION) {
      const where = this.protocolVersion
        ? `on protocol revision ${this.protocolVersion}`
        : 'before a 2025-03-26 session is initialized';
      this.reply(
        null,
        INVALID_REQUEST,
        `Invalid Request: JSON-RPC batches are not supported ${where}; MCP removed batching after 2025-03-26`,
      );
      return;
    }
    if (values.length === 0) {
      this.reply(null, INVALID_REQUEST, 'Invalid Request: empty JSON-RPC batch');
      return;
    }
    const answers: object[] = [];
    const pending = new Set<Id>();
    const messages: JSONRPCMessage[] = [];
    for (const value of values) {
      const problem = invalidMessage(value);
      if (problem !== undefined)
        answers.push(errorResponse(validId(value), INVALID_REQUEST, `Invalid Request: ${problem}`));
      else {
        if (isJSONRPCRequest(value)) pending.add(value.id);
        messages.push(value as JSONRPCMessage);
      }
    }
    const batch = { pending, answers };
    for (const id of pending) this.batches.set(id, batch);
    if (pending.size === 0 && answers.length > 0) this.write(`${JSON.stringify(answers)}\n`);
    for (const message of messages) this.deliver(message);
  }

  /** Holds an answer that belongs to an open batch; writes the batch's array once all are in. */
  private collect(message: JSONRPCMessage): boolean {
    const id = (message as { id?: Id }).id ?? null;
    const batch = this.batches.get(id);
    if (!batch) return false;
    this.batches.delete(id);
    batch.pending.delete(id);
    batch.answers.push(message);
    if (batch.pending.size === 0) this.write(`${JSON.stringify(batch.answers)}\n`);
    return true;
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private reply(id: Id, code: number, message: string): void {
    this.write(`${JSON.stringify(errorResponse(id, code, message))}\n`);
  }

  /** Queues a frame; the queue is flushed in one write per event-loop turn, or on drain when stdout was full. */
  private write(text: string): void {
    this.queue.push(text);
    this.queuedChars += text.length;
    if (this.blocked) {
      if (this.queuedChars > this.maxQueuedChars && !this.inputPaused && !this.closed) {
        this.inputPaused = true;
        this.input.pause();
      }
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.queue.length === 0) return;
    const text = this.queue.length === 1 ? this.queue[0]! : this.queue.join('');
    this.queue = [];
    this.queuedChars = 0;
    if (!this.output.write(text)) this.blocked = true;
  };

  private readonly onDrain = (): void => {
    this.blocked = false;
    this.flush();
    if (this.inputPaused && !this.closed) {
      this.inputPaused = false;
      this.input.resume();
    }
  };

  private readonly onEnd = (): void => {
    // Input ended inside a skipped line: it is still answered.
    if (this.scan && !this.closed) this.answerTooLong(null);
    void this.close();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** A client that closed its end (EPIPE) ends the connection; later write errors are ignored. */
  private readonly onOutputError = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };
}

function errorResponse(id: Id, code: number, message: string): object {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isInteger(value);
}

/** The message's id when it is a valid one (string or integer), else null (JSON-RPC 2.0 §5). */
function validId(value: unknown): Id {
  const id = isObject(value) ? value.id : undefined;
  return isId(id) ? id : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MEMBERS: Record<string, string[]> = {
  request: ['jsonrpc', 'id', 'method', 'params'],
  notification: ['jsonrpc', 'method', 'params'],
  result: ['jsonrpc', 'id', 'result'],
  error: ['jsonrpc', 'id', 'error'],
};

/** Why a parsed value is not a JSON-RPC request, notification or response; undefined when it is one. */
function invalidMessage(value: unknown): string | undefined {
  if (
    isJSONRPCRequest(value) ||
    isJSONRPCNotification(value) ||
    isJSONRPCResultResponse(value) ||
    isJSONRPCErrorResponse(value)
  )
    return undefined;
  if (!isObject(value)) return 'a JSON-RPC message must be an object';
  if (value.jsonrpc !== '2.0')
    return 'jsonrpc' in value
      ? `"jsonrpc" must be "2.0", not ${JSON.stringify(value.jsonrpc)}`
      : '"jsonrpc": "2.0" is missing';
  if ('id' in value && !isId(value.id)) return `"id" must be a string or an integer, not ${JSON.stringify(value.id)}`;
  const kind =
    'method' in value
      ? 'id' in value
        ? 'request'
        : 'notification'
      : 'result' in value
        ? 'result'
        : 'error' in value
          ? 'error'
          : undefined;
  if (kind === undefined)
    return 'a message needs "method" (a request or notification) or "result" or "error" (a response)';
  const extra = Object.keys(value).filter((key) => !MEMBERS[kind]!.includes(key));
  if (extra.length > 0)
    return `unexpected member ${JSON.stringify(extra[0])} in a ${kind === 'result' || kind === 'error' ? 'response' : kind}`;
  if (kind === 'request' || kind === 'notification') {
    if (typeof value.method !== 'string') return '"method" must be a string';
    return '"params" must be an object (with a valid "_meta")';
  }
  if (kind === 'error') return '"error" must be an object with an integer "code" and a string "message"';
  if (!('id' in value)) return 'a response needs the "id" of its request';
  return '"result" must be an object';
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON whitespace (RFC 8259 §2). */
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
/** The bytes a JSON number may go on with (RFC 8259 §6): digits, `.`, `e`, `E`, `+`, `-`. */
const isNumberByte = (b: number) => isDigit(b) || b === 0x2e || b === 0x65 || b === 0x45 || b === 0x2b || b === MINUS;

/** Longest id kept, in bytes: an id is a key into the caller's pending requests, not content. */
const MAX_ID_BYTES = 4096;
/** Longest member name kept: enough for `"id"` written with escapes (`"\u0069\u0064"`). */
const MAX_KEY_BYTES = 16;

type Phase =
  | 'start' // before the top-level value
  | 'key' // in the top-level object, before a member name
  | 'keyText' // in a member name
  | 'colon' // after a member name
  | 'value' // after `"id":`, before its value
  | 'idText' // in an id string
  | 'idNumber' // in an id number
  | 'afterId' // after the id, before the `,` or `}` that confirms it
  | 'skip'; // in another member's value, up to the `,` or `}` after it

/**
 * Reads the top-level `"id"` of a JSON-RPC message from its bytes as they stream by, keeping only
 * the id itself, so a line over the limit is never held whole. It follows strings, escapes and
 * nesting and takes the first `"id"` member of the top-level object when that is a JSON string or
 * integer followed by `,` or `}`; anything else (a batch, an id of another type or longer than
 * MAX_ID_BYTES, bytes that cannot be JSON where it reads) ends the search with id null.
 */
export class IdScanner {
  /** Set once the answer is known: `id` then holds it (null when it cannot be read). */
  done = false;
  id: Id = null;
  /** The id read, until what follows it confirms it. */
  private candidate: Id = null;
  private phase: Phase = 'start';
  /** Nesting inside the value being skipped. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  private text: number[] = [];
  private textTooLong = false;
  private isIdKey = false;

  feed(bytes: Buffer): void {
    const n = bytes.length;
    // Inside skipped strings (the bulk of a large message) the scan jumps between quotes and
    // backslashes; the next backslash is looked up again only once passed.
    let backslash = -2;
    let i = 0;
    while (i < n && !this.done) {
      if (this.phase === 'skip' && this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        if (backslash !== -1 && backslash < i) backslash = bytes.indexOf(BACKSLASH, i);
        const quote = bytes.indexOf(QUOTE, i);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          this.escaped = true;
          i = backslash + 1;
        } else if (quote === -1) i = n;
        else {
          this.inString = false;
          i = quote + 1;
        }
        continue;
      }
      const b = bytes[i++]!;
      switch (this.phase) {
        case 'start':
          if (b === OPEN_BRACE) this.phase = 'key';
          else if (!isSpace(b)) this.finish(null);
          break;
        case 'key':
          if (b === QUOTE) this.begin('keyText');
          else if (!isSpace(b)) this.finish(null); // `}`: there is no id
          break;
        case 'keyText':
        case 'idText':
          this.stringByte(b);
          break;
        case 'colon':
          if (b === COLON) {
            this.phase = this.isIdKey ? 'value' : 'skip';
            this.depth = 0;
          } else if (!isSpace(b)) this.finish(null);
          break;
        case 'value':
          if (b === QUOTE) this.begin('idText');
          else if (b === MINUS || isDigit(b)) {
            this.begin('idNumber');
            this.text.push(b);
          } else if (!isSpace(b)) this.finish(null); // null, true, an object: not a valid id
          break;
        case 'idNumber':
          if (isNumberByte(b)) {
            if (this.text.push(b) > 32) this.finish(null);
            break;
          }
          {
            const value = this.parsed('');
            if (typeof value === 'number' && Number.isInteger(value)) {
              this.candidate = value;
              this.phase = 'afterId';
              i--; // the byte that ended the number is the one after the id
            } else this.finish(null);
          }
          break;
        case 'afterId':
          if (b === COMMA || b === CLOSE_BRACE) this.finish(this.candidate);
          else if (!isSpace(b)) this.finish(null);
          break;
        case 'skip':
          if (b === QUOTE) this.inString = true;
          else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
          else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
            // The top-level object closed without an id (or a stray `]`: not JSON).
            if (this.depth === 0) this.finish(null);
            else this.depth--;
          } else if (b === COMMA && this.depth === 0) this.phase = 'key';
          break;
      }
    }
  }

  private begin(phase: 'keyText' | 'idText' | 'idNumber'): void {
    this.phase = phase;
    this.text = [];
    this.textTooLong = false;
    this.escaped = false;
  }

  private finish(id: Id): void {
    this.done = true;
    this.id = id;
    this.text = [];
  }

  /** The bytes kept, parsed as JSON (a string when `quote`), or undefined when they are not JSON. */
  private parsed(quote: '"' | ''): unknown {
    try {
      return JSON.parse(quote + Buffer.from(this.text).toString('utf8') + quote);
    } catch {
      return undefined;
    }
  }

  /** A byte of a member name or of an id string, kept with its escapes for JSON.parse. */
  private stringByte(b: number): void {
    if (b === QUOTE && !this.escaped) {
      if (this.phase === 'keyText') {
        this.isIdKey = !this.textTooLong && this.parsed('"') === 'id';
        this.phase = 'colon';
        return;
      }
      const value = this.parsed('"');
      if (typeof value !== 'string') {
        this.finish(null);
        return;
      }
      this.candidate = value;
      this.phase = 'afterId';
      return;
    }
    this.escaped = !this.escaped && b === BACKSLASH;
    if (this.textTooLong) return;
    const limit = this.phase === 'keyText' ? MAX_KEY_BYTES : MAX_ID_BYTES;
    if (this.text.push(b) <= limit) return;
    // A long member name is not `"id"`; its end is still looked for. A long id is not read.
    if (this.phase === 'keyText') {
      this.textTooLong = true;
      this.text = [];
    } else this.finish(null);
  }
}
