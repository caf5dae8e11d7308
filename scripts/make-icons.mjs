// Renders the icons from their SVG sources (build/*.svg) with Debian's Chromium (as the e2e suite uses
// it), and packs the app icon's sizes into build/icon.ico (Windows) and build/icon.icns (macOS).
// The outputs are committed, so packaging needs no browser: run this only after changing an SVG.
//   node scripts/make-icons.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const build = path.join(root, 'build');
const assets = path.join(root, 'assets');

/** Every size a desktop asks for: Linux hicolor sizes, Windows ICO entries, macOS ICNS entries. */
const APP_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entry types holding PNG data, by pixel size (Apple's icns format). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
const page = await browser.newPage();

async function render(svgFile, size) {
  const svg = readFileSync(path.join(build, svgFile), 'utf8').replace(
    '<svg ',
    `<svg width="${size}" height="${size}" `,
  );
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<!doctype html><body style="margin:0;background:transparent">${svg}</body>`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

const appIcon = new Map();
mkdirSync(path.join(build, 'icons'), { recursive: true });
for (const size of APP_SIZES) {
  const png = await render('icon.svg', size);
  appIcon.set(size, png);
  writeFileSync(path.join(build, 'icons', `${size}x${size}.png`), png);
}
writeFileSync(path.join(build, 'icon.png'), appIcon.get(1024));
writeFileSync(path.join(assets, 'icon.png'), appIcon.get(512));
writeFileSync(path.join(assets, 'tray-icon.png'), await render('tray.svg', 32));
writeFileSync(path.join(assets, 'tray-iconTemplate.png'), await render('tray-template.svg', 16));
writeFileSync(path.join(assets, 'tray-iconTemplate@2x.png'), await render('tray-template.svg', 32));
writeFileSync(path.join(assets, 'overlay-badge.png'), await render('overlay-badge.svg', 16));
writeFileSync(path.join(assets, 'overlay-badge@2x.png'), await render('overlay-badge.svg', 32));
await browser.close();

writeFileSync(path.join(build, 'icon.ico'), ico(ICO_SIZES.map((size) => [size, appIcon.get(size)])));
writeFileSync(
  path.join(build, 'icon.icns'),
  icns(ICNS_TYPES.map(([type, size]) => [type, appIcon.get(size)])),
);
console.log('Icons written to build/ and assets/.');

/** An ICO whose entries are PNGs (Windows Vista and later). */
function ico(entries) {
  const header = Buffer.alloc(6 + 16 * entries.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(([size, png], i) => {
    const at = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...entries.map(([, png]) => png)]);
}

/** An ICNS of PNG entries: 'icns', total length, then per entry its type, length and data. */
function icns(entries) {
  const parts = entries.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((total, part) => total + part.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}
