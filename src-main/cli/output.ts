/**
 * The `difftray` command's own output streams. A reader that stops reading early (`difftray status |
 * head -1`) closes the pipe: that is no error of the command's, so what is left to print is dropped
 * and the command ends as it would have, with its usual exit code and no stack trace.
 */
import { codeOf, messageOf } from '../../shared/error-message';

/** Whether `error` says the reader of a pipe went away (the write that failed, or one after it). */
export function isClosedPipe(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * Lets `stream` fail quietly when its reader is gone; any other write error is said once on stderr
 * (exit 2), as every other error of the command is.
 */
export function tolerateClosedPipe(stream: NodeJS.WritableStream, name: string): void {
  stream.on('error', (error: unknown) => {
    if (isClosedPipe(error)) return;
    process.exitCode = 2;
    if (name !== 'stderr') process.stderr.write(`difftray: cannot write to ${name}: ${messageOf(error)}\n`);
  });
}
