/** Which agent CLIs are connected, for the UI and for cancelling their reviews when they leave. */
import { randomUUID } from 'node:crypto';
import type { ClientInfo, ClientProtocol } from '../../../shared/app-api';
import { MAX_LABEL_CHARS } from '../limits';
import { SelectionError, type ContextSink, type SelectionContext } from '../review/selection-context';

export class ClientRegistry {
  private readonly clients = new Map<string, ClientInfo>();
  /** How to close each client's connection, for the person's "Disconnect". */
  private readonly closers = new Map<string, () => void>();
  private readonly listeners = new Set<(clientId: string) => void>();
  /** How to send a selection to each client whose protocol can carry one. */
  private readonly contextSinks = new Map<string, ContextSink>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Called with the id of a client that connected, changed or left. */
  onChange(listener: (clientId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  connect(name: string, protocol: ClientProtocol, close: () => void = () => {}): ClientInfo {
    const client: ClientInfo = { id: randomUUID(), name, protocol, connectedAt: this.now(), connected: true };
    this.clients.set(client.id, client);
    this.closers.set(client.id, close);
    this.emit(client.id);
    return client;
  }

  /** Fill in what a client says about itself after connecting (MCP initialize, ide_connected). */
  describe(
    id: string,
    details: Partial<Pick<ClientInfo, 'name' | 'version' | 'pid' | 'workspace' | 'agentSession' | 'claimed'>>,
  ): void {
    const client = this.clients.get(id);
    if (!client) return;
    // A client names itself: its words are labels, bounded like every other label.
    for (const key of ['name', 'version', 'agentSession'] as const) {
      const value = details[key];
      if (value !== undefined) details = { ...details, [key]: value.slice(0, MAX_LABEL_CHARS) };
    }
    Object.assign(client, details);
    this.emit(id);
  }

  /** A status line from the client ("running tests…"), shown without interrupting anything. */
  setStatus(id: string, text: string): void {
    const client = this.clients.get(id);
    if (!client) return;
    // Cut by code points, not UTF-16 units, so an emoji is never split in two.
    client.status = { text: Array.from(text).slice(0, 500).join(''), at: this.now() };
    this.emit(id);
  }

  /** The client's connection can take selections as context (its adapter knows how). */
  setContextSink(id: string, sink: ContextSink): void {
    if (this.clients.has(id)) this.contextSinks.set(id, sink);
  }

  /** Sends `selection` to the client's agent; refused when it is gone or its protocol has no way. */
  async sendContext(id: string, selection: SelectionContext): Promise<void> {
    const client = this.clients.get(id);
    if (!client) throw new SelectionError('The agent is no longer connected');
    const sink = this.contextSinks.get(id);
    if (!sink) throw new SelectionError(`${client.name} has no way to receive lines from DiffTray`);
    await sink(selection);
  }

  /** The client object stays referenced by its reviews (marked disconnected); the registry forgets it. */
  disconnect(id: string): void {
    const client = this.clients.get(id);
    if (!client) return;
    client.connected = false;
    this.clients.delete(id);
    this.closers.delete(id);
    this.contextSinks.delete(id);
    this.emit(id);
  }

  /** The person asked to drop this client: close its connection (which then reports `disconnect`). */
  requestDisconnect(id: string): void {
    const close = this.closers.get(id);
    if (!close) throw new Error(`No connected client ${id}`);
    close();
  }

  list(): ClientInfo[] {
    return [...this.clients.values()];
  }

  private emit(clientId: string): void {
    for (const listener of this.listeners) listener(clientId);
  }
}
