/**
 * An MCP transport over one `ws` WebSocket, used by the bridge for each connection and by tests as a
 * client transport (the SDK's own WebSocket client cannot send the auth header).
 *
 * Bad frames never reach the SDK: unparsable JSON gets a JSON-RPC parse error, anything else that is not
 * a JSON-RPC message gets an invalid-request error, and the connection stays open. Whatever the SDK's
 * handler throws while taking a message in is answered with an internal error, not thrown into ws
 * (where it would end the process).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RawData } from 'ws';
import WebSocket from 'ws';
import { rawDataToString } from '../loopback/raw-data';
import { cutOffIfNotReading, onGuardedMessage } from '../loopback/socket-guard';

export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INTERNAL_ERROR = -32603;

export class WebSocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly early: JSONRPCMessage[] = [];
  private started = false;

  constructor(private readonly socket: WebSocket) {
    // Listen from the start: frames may arrive before the SDK calls start().
    onGuardedMessage(
      socket,
      'mcp',
      (message) => this.onerror?.(new Error(message)),
      (data, isBinary) => this.receive(data, isBinary),
      () =>
        this.replyError(null, JSONRPC_INTERNAL_ERROR, 'Internal error: DiffTray could not take this message'),
    );
    socket.on('close', () => this.onclose?.());
    socket.on('error', (error) => this.onerror?.(error));
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('WebSocketTransport already started');
    this.started = true;
    for (const message of this.early.splice(0)) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== WebSocket.OPEN) {
        reject(new Error('WebSocket is not open'));
        return;
      }
      // A peer that stopped reading would make us hold every later answer: cut it off instead.
      if (cutOffIfNotReading(this.socket, 'mcp', () => {})) {
        reject(new Error('WebSocket peer stopped reading; connection closed'));
        return;
      }
      this.socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.socket.close();
  }

  private receive(data: RawData, isBinary: boolean): void {
    let value: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      value = JSON.parse(rawDataToString(data));
    } catch {
      this.replyError(null, JSONRPC_PARSE_ERROR, 'Parse error: frame is not valid JSON text');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.replyError(idOf(value), JSONRPC_INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    if (this.started) this.onmessage?.(parsed.data);
    else this.early.push(parsed.data);
  }

  private replyError(id: string | number | null, code: number, message: string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }
}

function idOf(value: unknown): string | number | null {
  if (value && typeof value === 'object' && 'id' in value) {
    const id = (value as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return null;
}
