/**
 * Zod schemas for the kinds of string every protocol accepts, each bounded by its limit in limits.ts,
 * so Claude, Gemini, Clio, native and the app API refuse the same sizes with the same words.
 */
import { z } from 'zod';
import {
  MAX_FILE_BYTES,
  MAX_LABEL_CHARS,
  MAX_NOTE_CHARS,
  MAX_PATH_CHARS,
  describeBytes,
  fitsInBytes,
} from './limits';

/** The words a refused file uses; the limit is named so a CLI author knows what to split. */
export const FILE_TOO_LARGE_MESSAGE = `larger than the ${describeBytes(MAX_FILE_BYTES)} limit per file (${MAX_FILE_BYTES} bytes of UTF-8)`;

/** A file path as a client names it. */
export const pathField = () =>
  z.string().max(MAX_PATH_CHARS, `a path may be at most ${MAX_PATH_CHARS} characters`);

/** Titles, tab names, client names and versions, status lines. */
export const labelField = () => z.string().max(MAX_LABEL_CHARS, `at most ${MAX_LABEL_CHARS} characters`);

/** Descriptions, rationales, reasons, notes. */
export const noteField = () => z.string().max(MAX_NOTE_CHARS, `at most ${MAX_NOTE_CHARS} characters`);

/** A file's whole text: at most MAX_FILE_BYTES once encoded as UTF-8. */
export const fileTextField = () =>
  z.string().refine((text) => fitsInBytes(text, MAX_FILE_BYTES), FILE_TOO_LARGE_MESSAGE);
