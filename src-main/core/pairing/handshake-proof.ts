/**
 * The arithmetic of the native handshake (shared/native-handshake.ts), for both ends: the server makes
 * proofs and signatures, the `difftray` command checks them. Every comparison is in constant time.
 */
import { createHash, createHmac, createPublicKey, randomBytes, timingSafeEqual, verify } from 'node:crypto';
import { NONCE_BYTES, SERVER_PROOF_LABEL, type HostKeyInfo } from '../../../shared/native-handshake';

/** A fresh nonce, as sent: 64 lowercase hex digits. */
export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('hex');
}

/** `label ‖ nonce`: what is MACed or signed (the nonce as its 32 bytes). */
export function labelled(label: string, nonceHex: string): Buffer {
  return Buffer.concat([Buffer.from(label, 'utf8'), Buffer.from(nonceHex, 'hex')]);
}

/** HMAC-SHA256 under the lock file's token of SERVER_PROOF_LABEL ‖ nonce, hex. */
export function serverProof(token: string, nonceHex: string): string {
  return createHmac('sha256', token).update(labelled(SERVER_PROOF_LABEL, nonceHex)).digest('hex');
}

export function isServerProof(token: string, nonceHex: string, given: string): boolean {
  const expected = Buffer.from(serverProof(token, nonceHex), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** `SHA256:<base64 of the sha256 of the public key's DER, unpadded>`, as ssh shows a key. */
export function fingerprintOf(publicKeyBase64: string): string {
  const digest = createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

/**
 * Whether `signature` (base64) is Ed25519 over `label ‖ nonce` by `key`. False for anything malformed:
 * a key that is not an Ed25519 SPKI, a signature of the wrong shape.
 */
export function isSignedBy(key: HostKeyInfo, label: string, nonceHex: string, signature: string): boolean {
  try {
    const publicKey = createPublicKey({
      key: Buffer.from(key.public_key, 'base64'),
      format: 'der',
      type: 'spki',
    });
    if (publicKey.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, labelled(label, nonceHex), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** Same key: compared by their fingerprints, in constant time. */
export function sameHostKey(a: HostKeyInfo, b: HostKeyInfo): boolean {
  const x = Buffer.from(fingerprintOf(a.public_key));
  const y = Buffer.from(fingerprintOf(b.public_key));
  return x.length === y.length && timingSafeEqual(x, y);
}
