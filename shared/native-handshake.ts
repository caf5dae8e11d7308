/**
 * The native handshake: the server proves who it is before the client sends anything of value.
 *
 * A stale lock file names a port that someone else may have taken since, and a paired host's tunnel port
 * can be taken on the remote host when the tunnel is down. So the `difftray` command connects at
 * HANDSHAKE_PATH without a token, and:
 *
 * 1. sends `challenge` with a fresh random nonce;
 * 2. the server answers with `proof` = HMAC-SHA256(key: the lock file's token, SERVER_PROOF_LABEL ‖ nonce)
 *    and `signature` = Ed25519(DiffTray's long-lived host key, SERVER_SIGNATURE_LABEL ‖ nonce), with the
 *    host key's public half;
 * 3. the client checks the proof (a lock file's token) or the signature against the key it pinned at
 *    pairing (paired.json), and only then sends `authenticate` with its token; from there on the socket
 *    speaks the whole protocol, as one opened with the token in NATIVE_AUTH_HEADER does.
 *
 * The labels keep one answer from standing for another: a server proof is never a valid proof in any other
 * place (a client proof, a pairing signature), even with the same nonce.
 */
import { z } from 'zod';

/** Where a client opens a socket without a token, to challenge the server and then authenticate. */
export const HANDSHAKE_PATH = '/handshake';
export const CHALLENGE_COMMAND = 'challenge';
export const AUTHENTICATE_COMMAND = 'authenticate';
/** Frames on a socket that has not authenticated yet: a challenge or an authenticate is far smaller. */
export const HANDSHAKE_MAX_FRAME_BYTES = 1024;

/** Bytes of a nonce: 32, sent as 64 lowercase hex digits. */
export const NONCE_BYTES = 32;
const nonceField = z.string().regex(/^[0-9a-f]{64}$/, 'the nonce is 64 lowercase hex digits (32 bytes)');

export const SERVER_PROOF_LABEL = 'DiffTray native handshake v1: server proof\n';
export const SERVER_SIGNATURE_LABEL = 'DiffTray native handshake v1: server signature\n';
/** What the server signs in its answer to `pair` (shared/native-pairing.ts). */
export const PAIR_SIGNATURE_LABEL = 'DiffTray pairing v1: server signature\n';

export const challengePayloadSchema = z.object({ nonce: nonceField });
export const authenticatePayloadSchema = z.object({ token: z.string().min(1).max(200) });

/** DiffTray's long-lived host key, as it presents it: the public half and its fingerprint. */
export const hostKeySchema = z.object({
  /** Ed25519 public key, SPKI DER in base64. */
  public_key: z.string().min(1).max(200),
  /** `SHA256:` and the base64 (unpadded) sha256 of the DER: what a person compares. */
  fingerprint: z.string().min(1).max(100),
});
export type HostKeyInfo = z.infer<typeof hostKeySchema>;

/** Answer to `challenge`. Checked by the client: whoever answers is not trusted yet. */
export const challengeResponseSchema = z.object({
  /** HMAC-SHA256 under the lock file's token, hex. */
  proof: z.string().regex(/^[0-9a-f]{64}$/),
  /** Ed25519 signature under the host key, base64. */
  signature: z.string().min(1).max(200),
  host_key: hostKeySchema,
});
export type ChallengeResponse = z.infer<typeof challengeResponseSchema>;

/** Answer to `authenticate`. */
export interface AuthenticateResponse {
  authenticated: true;
  /** Authenticated as a paired client (its own token), not with the lock file's. */
  paired: boolean;
}
