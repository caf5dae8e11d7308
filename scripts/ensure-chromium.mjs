// The end-to-end suite drives Debian's Chromium (Playwright's own browser download is not used).
// Installs it with apt-get when missing and possible; otherwise says exactly what to do.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(browser)) {
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    console.error(
      `Chromium not found at ${browser}. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log('Installing Chromium for the end-to-end tests (apt-get install -y chromium)...');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
}
