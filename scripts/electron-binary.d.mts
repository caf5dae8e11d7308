/** Path of the Electron binary, or null when this machine has none. */
export function findElectronBinary(): string | null;
