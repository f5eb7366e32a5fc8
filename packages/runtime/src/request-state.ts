// Who a request comes from, and the signed requestState bound to that caller.

import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';

import {
  type AuthInfo,
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';

import { log } from './request-log.js';

/**
 * Who a request comes from, for binding sessions and request state to their caller: what the
 * verifier put in `extra.principal` (OAuth: issuer, subject and client), else the client ID.
 * Undefined without authentication.
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const principal = auth.extra?.principal;
  return typeof principal === 'string' ? principal : auth.clientId;
}

/** The environment variable holding the key that signs `requestState` (at least 32 bytes). */
export const REQUEST_STATE_KEY_ENV = 'MCP_REQUEST_STATE_KEY';

/** The key from the environment, or null for the development fallback. */
function requestStateKey(): string | null {
  const key = process.env[REQUEST_STATE_KEY_ENV];
  if (key !== undefined && key !== '') {
    const bytes = Buffer.byteLength(key);
    if (bytes < 32) {
      throw new Error(
        `${REQUEST_STATE_KEY_ENV} is ${bytes} bytes long and must be at least 32 (it signs requestState): generate one with \`openssl rand -base64 32\``,
      );
    }
    return key;
  }
  if (process.env.NODE_ENV === 'production') {
    throw new Error(`${REQUEST_STATE_KEY_ENV} is not set: it signs requestState and must be shared by every replica`);
  }
  return null;
}

let stateKey: string | null | undefined;
let codec: RequestStateCodec | undefined;

/**
 * Reads and checks the signing key; the transports call it as they start, so a bad key stops the
 * server with its message (read on import, it would escape main's handling as a stack trace).
 */
export function checkRequestStateKey(): void {
  stateKey ??= requestStateKey();
}

/** The codec that signs and verifies `requestState`, built on first use. */
export function requestStateCodec(): RequestStateCodec {
  if (!codec) {
    checkRequestStateKey();
    if (stateKey === null) {
      // Development fallback: fine for one process; replicas (or a restart) reject each other's state.
      log('warn', `${REQUEST_STATE_KEY_ENV} is not set; requestState is signed with a random per-process key`);
    }
    codec = createRequestStateCodec({
      key: stateKey ?? randomBytes(32),
      ttlSeconds: 600,
      // State minted for one caller and method is refused when another echoes it.
      bind: (sdk) => `${sdk.mcpReq.method}\0${principalOf(sdk.http?.authInfo) ?? ''}`,
    });
  }
  return codec;
}

/** For `ServerOptions.requestState.verify`: tampered or expired state is -32602 before handlers run. */
export const verifyRequestState = (state: string, sdk: ServerContext) => requestStateCodec().verify(state, sdk);
