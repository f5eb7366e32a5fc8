// Who a request comes from, and the signed requestState bound to that caller.

import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';

import {
  type AuthInfo,
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';

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
    if (Buffer.byteLength(key) < 32) {
      throw new Error(`${REQUEST_STATE_KEY_ENV} must be at least 32 bytes long (it signs requestState)`);
    }
    return key;
  }
  if (process.env.NODE_ENV === 'production') {
    throw new Error(`${REQUEST_STATE_KEY_ENV} is not set: it signs requestState and must be shared by every replica`);
  }
  return null;
}

// Checked when the server starts, so a bad key fails before the first request.
const stateKey = requestStateKey();
let codec: RequestStateCodec | undefined;

/** The codec that signs and verifies `requestState`, built on first use. */
export function requestStateCodec(): RequestStateCodec {
  if (!codec) {
    if (stateKey === null) {
      // Development fallback: fine for one process; replicas (or a restart) reject each other's state.
      console.error(
        `warning: ${REQUEST_STATE_KEY_ENV} is not set; requestState is signed with a random per-process key`,
      );
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
