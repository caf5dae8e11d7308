/** Run settings from the environment, shared by `npm test` and `npm run fuzz`. */
import { freshSeed } from './prng';

export function envNumber(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new Error(`${name} must be a number, not ${value}`);
  return number;
}

/** DIFFTRAY_FUZZ_SEED, else a fresh seed (printed by the run). */
export function seedFromEnv(): number {
  return envNumber('DIFFTRAY_FUZZ_SEED') ?? freshSeed();
}
