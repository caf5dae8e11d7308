/**
 * Changes settings.json from the app (the switches a person turns). Only the keys given change; every
 * other key, known or not, is kept as it was. The new file is written beside the old one and renamed
 * over it, so a crash leaves the old file or the new one, never half of one. A file that is not a JSON
 * object is not overwritten: the person's hand-written text is not thrown away over a switch.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isRecord } from '../../../shared/is-record';
import { readRegularFile } from '../disk/regular-file';
import { messageOf } from '../../../shared/error-message';

export class SettingsFileError extends Error {}

export function updateSettingsFile(given: string, changes: Readonly<Record<string, unknown>>): void {
  const file = linkTarget(given);
  const current = readObject(file);
  const next = { ...current, ...changes };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new SettingsFileError(`${file} could not be written: ${messageOf(error)}`);
  }
}

/**
 * A settings.json that is a link (a dotfiles repository, say) is written where it points, so the link
 * stays; renaming over the link would replace it with a plain file.
 */
function linkTarget(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch {
    return file;
  }
}

function readObject(file: string): Record<string, unknown> {
  let raw: string;
  try {
    raw = readRegularFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SettingsFileError(`${file} could not be read: ${messageOf(error)}`);
  }
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (error) {
    throw new SettingsFileError(`${file} is not valid JSON, so it was left as it is (${messageOf(error)})`);
  }
  if (!isRecord(value)) throw new SettingsFileError(`${file} is not a JSON object, so it was left as it is`);
  return value;
}
