/** "Start at login" with Electron, as login-items.ts plans it per platform. */
import { app } from 'electron';
import {
  applyAutostartFile,
  autostartEnabled,
  autostartFile,
  loginItemPlan,
  loginItemQuery,
  type LoginItemContext,
} from './login-items';

export function isOpenAtLogin(context: LoginItemContext): boolean {
  return context.platform === 'linux'
    ? autostartEnabled(autostartFile(context))
    : app.getLoginItemSettings(loginItemQuery(context)).openAtLogin;
}

export function setOpenAtLogin(on: boolean, context: LoginItemContext): void {
  const plan = loginItemPlan(on, context);
  if (plan.kind === 'electron') app.setLoginItemSettings(plan.settings);
  else applyAutostartFile(plan);
}
