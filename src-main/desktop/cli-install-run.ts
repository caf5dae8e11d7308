/** Runs a CliInstallPlan (cli-install.ts) and tells the person how it went. Thin: the plan decides. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { dialog } from 'electron';
import { installedMessage, planCliInstall, writeLauncher, type CliInstallContext } from './cli-install';
import { messageOf } from '../../shared/error-message';

const run = promisify(execFile);

export async function installCommandLineTool(context: CliInstallContext): Promise<void> {
  const plan = planCliInstall(context);
  try {
    if (plan.kind === 'elevated') {
      // Staged in a private temp folder; the administrator prompt copies it into place.
      const stagingDir = mkdtempSync(path.join(os.tmpdir(), 'difftray-cli-'));
      try {
        const staged = path.join(stagingDir, 'difftray');
        writeFileSync(staged, plan.script, { mode: 0o755 });
        const [program, ...args] = plan.elevate(staged);
        await run(program!, args);
      } finally {
        rmSync(stagingDir, { recursive: true, force: true });
      }
    } else {
      writeLauncher(plan.file, plan.script);
      if (plan.kind === 'windows' && plan.addToPath) {
        const [program, ...args] = plan.addToPath;
        await run(program!, args, { windowsHide: true });
      }
    }
    await dialog.showMessageBox({ type: 'info', ...installedMessage(plan) });
  } catch (error) {
    await dialog.showMessageBox({
      type: 'error',
      message: 'The difftray command could not be installed',
      detail: messageOf(error),
    });
  }
}
