/**
 * Frames a well-behaved client would never send, written straight onto an open ws client's socket.
 */
import type WebSocket from 'ws';

/**
 * The header of a masked text frame that announces `length` payload bytes, and no payload: a server
 * that checks its limit against the header closes at once (1009); one that waits to buffer the
 * payload first never answers.
 */
export function sendFrameHeader(socket: WebSocket, length: number): void {
  const header = Buffer.alloc(2 + 8 + 4);
  header[0] = 0x81; // FIN, text
  header[1] = 0x80 | 127; // masked, 64-bit length follows
  header.writeBigUInt64BE(BigInt(length), 2);
  rawSocket(socket).write(header); // the mask key stays zero
}

/** A text frame whose payload is not UTF-8 (the server must close with 1007, and live on). */
export function sendInvalidUtf8(socket: WebSocket): void {
  socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
}

/** Resolves with the close code and reason (or rejects after `timeoutMs`). */
export function closed(socket: WebSocket, timeoutMs = 5000): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    if (socket.readyState === socket.CLOSED) reject(new Error('already closed'));
    const timer = setTimeout(() => reject(new Error('the socket was not closed')), timeoutMs);
    socket.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString() });
    });
  });
}

function rawSocket(socket: WebSocket): { write(data: Buffer): void } {
  return (socket as unknown as { _socket: { write(data: Buffer): void } })._socket;
}
