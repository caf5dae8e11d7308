/** What the tray shows, as plain data: the Electron shell only renders it. */
export interface TrayModel {
  tooltip: string;
  pendingLabel: string;
  pendingCount: number;
}

export function trayModel(pendingCount: number): TrayModel {
  const pendingLabel =
    pendingCount === 0
      ? 'No pending reviews'
      : `${pendingCount} pending review${pendingCount === 1 ? '' : 's'}`;
  return { tooltip: `DiffTray — ${pendingLabel}`, pendingLabel, pendingCount };
}
