// Where Electron can run (CI), its suite must run rather than skip: finds the Electron binary, or
// fetches it once with the electron package's own installer (npm 11 skips that install script), and
// fails, saying so, when there is none.
import { downloadElectronBinary, findElectronBinary } from './electron-binary.mjs';

const binary = findElectronBinary() ?? downloadElectronBinary();
if (!binary) {
  console.error('No Electron binary: the electron package is missing or its download failed.');
  process.exit(1);
}
console.log(`Electron binary: ${binary}`);
