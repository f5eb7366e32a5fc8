/**
 * SHA-256 in hex, one shot: crypto.hash (Node ≥ 20.12) skips the Hash object createHash builds,
 * about three times faster on the thousands of small inputs a large project hashes.
 */
import crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string | Buffer, encoding: 'hex') => string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

export const sha256hex: (data: string | Buffer) => string = oneShot
  ? (data) => oneShot('sha256', data, 'hex')
  : (data) => crypto.createHash('sha256').update(data).digest('hex');
