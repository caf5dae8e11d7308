/** Path of the installed Electron binary, or null when this machine has none. */
export function findElectronBinary(): string | null;
/** Tries once to fetch the Electron binary; returns it, or null when it cannot be had. */
export function downloadElectronBinary(timeoutMs?: number): string | null;
