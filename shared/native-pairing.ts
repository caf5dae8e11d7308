/**
 * Pairing in DiffTray's native protocol (seed 002): how an agent on another host, which cannot read the
 * lock file, gets a token of its own with a 6-digit code, and what it may ask once paired.
 */
import { z } from 'zod';
import { labelField } from './field-limits';
import { challengePayloadSchema, type HostKeyInfo } from './native-handshake';

/**
 * Where a client without a token pairs: an upgrade at this path takes one `pair` request and nothing
 * else (tiny frames, a short deadline, wrong codes rate limited), answers it, and closes.
 */
export const PAIR_PATH = '/pair';
export const PAIR_COMMAND = 'pair';
/** Frames on the pairing socket: a `pair` request is far smaller. */
export const PAIR_MAX_FRAME_BYTES = 1024;

export const pairPayloadSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'the pairing code is 6 digits'),
  client_name: labelField().min(1),
  /**
   * A fresh nonce the server signs with its host key (PAIR_SIGNATURE_LABEL): the key the client pins is
   * one whose holder answered this request.
   */
  nonce: challengePayloadSchema.shape.nonce.optional(),
});
export type PairPayload = z.infer<typeof pairPayloadSchema>;

/**
 * Answer to `pair`: the client's own long-lived token, sent in `authenticate` (or NATIVE_AUTH_HEADER)
 * from then on, and DiffTray's host key, which the client pins and checks on every connect.
 */
export interface PairResponse {
  token: string;
  client_id: string;
  server_name: 'DiffTray';
  host_key: HostKeyInfo;
  /** Ed25519 over PAIR_SIGNATURE_LABEL ‖ nonce, base64; present when the request carried a nonce. */
  signature?: string;
}

/**
 * What a paired client may ask: reviews of the texts it sends, approvals, its own status. Anything that
 * reads or changes this machine's files or settings (file trees, file contents, watch mode, workspace
 * context) is refused with LOCAL_ONLY: those are the local agent's.
 */
export const PAIRED_COMMANDS: ReadonlySet<string> = new Set([
  'hello',
  'heartbeat',
  'propose_change_set',
  'get_review',
  'list_reviews',
  'cancel_review',
  'status',
  'request_approval',
]);
