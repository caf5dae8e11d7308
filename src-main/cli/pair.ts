/**
 * `difftray pair --port <n> [--host 127.0.0.1] [--name <client name>] [--code <digits>]`: pairs this
 * host with a DiffTray on another machine, reached through a tunnel (`ssh -R <n>:127.0.0.1:<port>`).
 * The person reads the 6-digit code from DiffTray ("Pair a remote agent" in Connections) and types it
 * here; DiffTray answers with this host's own token and its host key, both stored in paired.json
 * (paired-file.ts); every later connection must be signed with that key (client.ts).
 *
 * Pairing itself trusts on first use: before it, this host knows nothing of DiffTray to check. So only the
 * code and this host's name are sent (the code is one use and short-lived), the key that answered is
 * pinned, and its fingerprint is printed for the person to compare with the one DiffTray shows.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import {
  NATIVE_PROTOCOL_VERSION,
  PAIR_COMMAND,
  PAIR_PATH,
  PAIR_SIGNATURE_LABEL,
  hostKeySchema,
  pairPayloadSchema,
  type Envelope,
  type ErrorPayload,
  type HostKeyInfo,
  type PairPayload,
} from '../../shared/native-protocol';
import { messageOf } from '../../shared/error-message';
import { NativeClient } from './client';
import { z } from 'zod';
import { fingerprintOf, isSignedBy, newNonce, sameHostKey } from '../core/pairing/handshake-proof';
import { CliError, tildePath } from './errors';
import { readPaired, writePaired } from './paired-file';

export interface PairOptions {
  port: number;
  host?: string;
  /** DiffTray's own port (the Host header), when the tunnel's port differs; default: `port`. */
  serverPort?: number;
  name?: string;
  code?: string;
  /**
   * Pin whatever key answers, even when paired.json pins another: for pairing with another DiffTray, or
   * one whose key was made anew. Without it, a pinned DiffTray must prove its key before the code is sent.
   */
  newHostKey?: boolean;
}

export interface PairIo {
  env: NodeJS.ProcessEnv;
  stdin: Readable & { isTTY?: boolean };
  stderr: Writable;
  out: (line: string) => void;
}

const TIMEOUT_MS = 10_000;

export async function pair(options: PairOptions, io: PairIo): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  const name = options.name ?? os.hostname();
  const code = (options.code ?? (await askCode(io))).trim();
  // By DiffTray's own rule, before anything is sent.
  const checked = pairPayloadSchema.shape.code.safeParse(code);
  if (!checked.success) throw new CliError(checked.error.issues[0]!.message);
  const serverPort = options.serverPort ?? options.port;
  const before = readPaired(io.env)?.hostKey;
  // A DiffTray whose key is pinned already must show it before it is sent a code.
  const pinned = options.newHostKey ? undefined : before;
  if (pinned) await requirePinnedServer(host, options.port, serverPort, pinned);
  const nonce = newNonce();
  const raw = await sendPair(host, options.port, serverPort, { code, client_name: name, nonce });
  const answer = checkAnswer(raw, nonce);
  if (pinned && !sameHostKey(pinned, answer.host_key)) {
    throw new CliError(
      `the answer to pair is signed by host key ${answer.host_key.fingerprint}, not by the pinned ` +
        `${pinned.fingerprint}; nothing stored`,
    );
  }
  const file = writePaired(io.env, {
    host,
    port: options.port,
    serverPort,
    token: answer.token,
    clientId: answer.client_id,
    name,
    pairedAt: Date.now(),
    hostKey: answer.host_key,
  });
  io.out(`paired with DiffTray as "${name}"; token stored in ${tildePath(file, os.homedir())}`);
  // Trust on first use: the person compares this with the key DiffTray shows beside the code.
  io.out(
    `DiffTray's host key: ${answer.host_key.fingerprint} (pinned; DiffTray shows it beside the code: they must match)`,
  );
  if (before && !sameHostKey(before, answer.host_key)) {
    io.out(`the host key pinned before was ${before.fingerprint}: it is replaced`);
  }
  return 0;
}

async function requirePinnedServer(
  host: string,
  port: number,
  serverPort: number,
  hostKey: HostKeyInfo,
): Promise<void> {
  try {
    await NativeClient.verifyServer({
      pid: 0,
      port,
      authToken: '',
      workspaceFolders: [],
      ideName: 'DiffTray',
      transport: 'ws',
      protocol_version: NATIVE_PROTOCOL_VERSION,
      via: { host, serverPort, name: '', hostKey },
    });
  } catch (error) {
    throw new CliError(
      `the pairing code was not sent: ${messageOf(error)}. To pair with a DiffTray whose key is new (another ` +
        `machine, a new DIFFTRAY_HOME), check the key DiffTray shows beside the code and run difftray pair ` +
        `--new-host-key`,
    );
  }
}

/**
 * The answer's token and the host key to pin. The key must have signed our nonce: what is pinned is a key
 * whose holder answered this very request (who that is, the person checks by its fingerprint).
 */
function checkAnswer(raw: unknown, nonce: string): PairAnswer {
  const parsed = pairAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CliError(
      'the answer to pair carries no valid token and host key (a DiffTray older than this difftray?); nothing stored',
    );
  }
  const { host_key, signature } = parsed.data;
  if (fingerprintOf(host_key.public_key) !== host_key.fingerprint) {
    throw new CliError("the answer to pair names a host key that is not its fingerprint's; nothing stored");
  }
  if (!isSignedBy(host_key, PAIR_SIGNATURE_LABEL, nonce, signature)) {
    throw new CliError(`the answer to pair is not signed by the host key it presents; nothing stored`);
  }
  return parsed.data;
}

const pairAnswerSchema = z.object({
  token: z.string().min(1).max(200),
  client_id: z.string().min(1).max(200),
  host_key: hostKeySchema,
  signature: z.string().min(1).max(200),
});
type PairAnswer = z.infer<typeof pairAnswerSchema>;

async function askCode(io: PairIo): Promise<string> {
  const lines = createInterface({ input: io.stdin, output: io.stderr, terminal: io.stdin.isTTY ?? false });
  // Input that ends before a line (</dev/null, Ctrl-D) leaves the question unanswered for good.
  const ended = new Promise<never>((_resolve, reject) =>
    lines.once('close', () => reject(new Error('input ended'))),
  );
  try {
    return await Promise.race([
      lines.question('Pairing code shown in DiffTray (Connections → Pair a remote agent): '),
      ended,
    ]);
  } catch {
    // The prompt's line is left open: the error goes on a line of its own.
    io.stderr.write('\n');
    throw new CliError('no pairing code given (type it, or pass --code)');
  } finally {
    lines.close();
  }
}

function sendPair(host: string, port: number, serverPort: number, payload: PairPayload): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${host}:${port}${PAIR_PATH}`, {
      headers: { Host: `127.0.0.1:${serverPort}` },
      handshakeTimeout: TIMEOUT_MS,
      maxPayload: 64 * 1024,
    });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new CliError('DiffTray did not answer the pairing request in time'));
    }, TIMEOUT_MS);
    const fail = (error: CliError) => {
      clearTimeout(timer);
      reject(error);
    };
    const message_id = randomUUID();
    socket.once('open', () => {
      const envelope: Envelope = {
        protocol_version: NATIVE_PROTOCOL_VERSION,
        message_id,
        type: 'request',
        command: PAIR_COMMAND,
        payload,
      };
      socket.send(JSON.stringify(envelope));
    });
    socket.once('message', (data) => {
      clearTimeout(timer);
      let message: Envelope;
      try {
        message = JSON.parse(data.toString()) as Envelope;
      } catch {
        socket.terminate();
        return fail(new CliError('DiffTray sent an answer that is not JSON'));
      }
      socket.close();
      if (message.type === 'error_response') {
        const error = message.payload as ErrorPayload;
        return fail(new CliError(`pairing refused (${error.code}): ${error.message}`));
      }
      resolve(message.payload);
    });
    socket.once('unexpected-response', (_request, response) => {
      socket.terminate();
      fail(new CliError(`DiffTray refused the pairing connection (HTTP ${response.statusCode})`));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        new CliError(
          error.code === 'ECONNREFUSED'
            ? `nothing listens on ${host}:${port} (is the tunnel up? ssh -R ${port}:127.0.0.1:<DiffTray's port>)`
            : `cannot reach DiffTray on ${host}:${port}: ${error.message}`,
        ),
      );
    });
  });
}
