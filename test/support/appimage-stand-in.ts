/**
 * A stand-in for DiffTray's AppImage, which cannot be built here: a script that mounts nothing but sets
 * APPDIR to a folder holding the built cli.cjs (and the bundles it loads) where the packaged app keeps it, and, as electron-builder's
 * AppRun does, puts --no-sandbox first unless the arguments hold one already. Node stands in for the
 * app's executable (which ELECTRON_RUN_AS_NODE leaves alone).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './build';

export function appImageStandIn(dir: string): { appImage: string; mount: string } {
  const mount = path.join(dir, 'mount');
  const unpacked = path.join(mount, 'resources', 'app.asar.unpacked', 'dist', 'main');
  mkdirSync(unpacked, { recursive: true });
  // The command's launcher and the two bundles it loads from beside it, as electron-builder.yml unpacks them.
  for (const bundle of ['cli.cjs', 'cli-main.cjs', 'hook.cjs']) {
    copyFileSync(path.join(ROOT, 'dist', 'main', bundle), path.join(unpacked, bundle));
  }
  const appImage = path.join(dir, 'DiffTray.AppImage');
  writeFileSync(
    appImage,
    [
      '#!/bin/bash',
      `export APPDIR=${JSON.stringify(mount)}`,
      `for arg in "$@"; do [ "$arg" = --no-sandbox ] && exec ${JSON.stringify(process.execPath)} "$@"; done`,
      `exec ${JSON.stringify(process.execPath)} --no-sandbox "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { appImage, mount };
}

/** Where a packaged app's cli.cjs was in an earlier run's mount (gone by now). */
export const OLD_MOUNT = '/tmp/.mount_DiffTrOld';
export const OLD_MOUNT_CLI = `${OLD_MOUNT}/resources/app.asar.unpacked/dist/main/cli.cjs`;
