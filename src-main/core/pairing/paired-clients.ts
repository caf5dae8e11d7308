/**
 * The clients paired with DiffTray (agents on other hosts): `<DIFFTRAY_HOME>/paired-clients.json`, 0600
 * in a 0700 folder. Each has its own long-lived token, kept only as its sha256: the file names who may
 * connect, it does not hold what they connect with.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { PairedClientInfo } from '../../../shared/app-api';
import { labelField } from '../../../shared/field-limits';
import { writeFileAtomically } from '../disk/atomic-file';
import { readRegularFile } from '../disk/regular-file';
import { messageOf } from '../../../shared/error-message';

const entrySchema = z.object({
  id: z.string().min(1).max(200),
  name: labelField().min(1),
  tokenSha256: z.string().regex(/^[0-9a-f]{64}$/),
  pairedAt: z.number(),
  lastUsedAt: z.number().optional(),
});
const fileSchema = z.object({ clients: z.array(entrySchema) });

type Entry = z.infer<typeof entrySchema>;

/** Last use is written at most this often per client: a busy client does not rewrite the file each time. */
const LAST_USE_WRITE_MS = 60_000;

export class PairedClients {
  private entries: Entry[];
  private readonly written = new Map<string, number>();

  constructor(
    /** The JSON file; undefined keeps the list in memory only (unit tests). */
    private readonly file: string | undefined,
    private readonly now: () => number = Date.now,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.entries = this.read();
  }

  list(): PairedClientInfo[] {
    return this.entries.map(({ id, name, pairedAt, lastUsedAt }) => ({
      id,
      name,
      pairedAt,
      ...(lastUsedAt !== undefined && { lastUsedAt }),
    }));
  }

  /** Pairs a new client: its token is returned once and kept only as a hash. */
  add(name: string): { id: string; token: string } {
    const token = randomBytes(32).toString('hex');
    const id = `p-${randomUUID()}`;
    this.entries.push({ id, name, tokenSha256: sha256(token), pairedAt: this.now() });
    this.write();
    return { id, token };
  }

  /** The client whose token this is; every entry is compared, in constant time. */
  verify(token: string): PairedClientInfo | undefined {
    const given = Buffer.from(sha256(token), 'hex');
    let found: Entry | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(given, Buffer.from(entry.tokenSha256, 'hex'))) found = entry;
    }
    return found && this.list().find((client) => client.id === found.id);
  }

  /** Notes a use (a connection); true when the list shown should change. */
  touch(id: string): boolean {
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (!entry) return false;
    const now = this.now();
    entry.lastUsedAt = now;
    if (now - (this.written.get(id) ?? 0) >= LAST_USE_WRITE_MS) {
      this.written.set(id, now);
      this.write();
    }
    return true;
  }

  /** Forgets the client; false when there was none. */
  revoke(id: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.id !== id);
    if (this.entries.length === before) return false;
    this.write();
    return true;
  }

  private read(): Entry[] {
    if (!this.file) return [];
    let raw: string;
    try {
      raw = readRegularFile(this.file);
    } catch {
      return [];
    }
    try {
      const parsed = fileSchema.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data.clients;
      this.log(`pairing: ${this.file} is not a paired-clients list; no client is paired`);
    } catch (error) {
      this.log(`pairing: ${this.file} is not valid JSON (${messageOf(error)}); no client is paired`);
    }
    return [];
  }

  private write(): void {
    if (!this.file) return;
    try {
      writeFileAtomically(this.file, `${JSON.stringify({ clients: this.entries }, null, 2)}\n`);
    } catch (error) {
      this.log(`pairing: could not write ${this.file}: ${messageOf(error)}`);
    }
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
