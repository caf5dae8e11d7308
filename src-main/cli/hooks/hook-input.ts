/**
 * What every agent's hook runner is given (HookIo), and why a hook gave no decision. The stdin itself is
 * read by the lean first step (hook-stdin.ts).
 */
import type { Readable } from 'node:stream';
import { messageOf } from '../../../shared/error-message';
import { ProtocolError } from '../client';
import { passThrough } from './hook-stdin';

export interface HookIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: Readable;
  out: (text: string) => void;
  /** Why no decision was given: one line on stderr. */
  err: (line: string) => void;
}

export { passThrough };

/** No decision for this agent (the reason on stderr); undefined, so the runner prints nothing. */
export function noDecision(io: Pick<HookIo, 'err'>, agent: { clientName: string }, why: string): undefined {
  passThrough(io, agent.clientName, why);
  return undefined;
}

/** Why a hook gave no decision, from what was thrown. */
export function reasonOf(error: unknown): string {
  if (error instanceof ProtocolError) return `${error.code} ${error.message}`;
  return messageOf(error);
}
